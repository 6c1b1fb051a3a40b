import { canonicalTool } from "@/lib/policy/tools";

/** Families whose bare rule allows far too much: every command, every file, every URL, every expression. */
const WIDE_FAMILIES = new Set(["Shell", "Read", "Edit", "Write", "WebFetch", "WebSearch", "Eval", "PowerShell"]);

/**
 * True for a rule that allows every use of a broad tool: `Bash`, `Bash(*)`, `Shell(*)`, `Shell(:*)`, `Edit(**)`.
 * Pure (the web app uses it too). Such a rule is remembered only when a person confirms it in Always allow.
 */
export function isToolWideRule(text: string): boolean {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*(.*?)\s*\))?\s*$/s.exec(text);
  if (!m) return false;
  const family = canonicalTool(m[1]!);
  if (!WIDE_FAMILIES.has(family) && m[1]!.toLowerCase() !== "powershell") return false;
  const spec = m[2];
  return spec === undefined || /^(?:\*+|:\*|\*:\*|\/\*\*|\*\*\/\*)?$/.test(spec);
}
