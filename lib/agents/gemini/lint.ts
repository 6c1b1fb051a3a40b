/**
 * Rule hygiene for Gemini's policy files, in Gemini's own semantics (rules sorted by priority, the first match
 * decides), over the listed `[[rule]]` entries:
 *   ineffective — a file Gemini drops whole (error), a rule Gemini drops (unsafe or bad regex), a workspace policy
 *                 this Gemini version never loads, an always-allow rule while `security.disableAlwaysAllow` is set
 *   duplicate   — the same table as an earlier one in a loaded file (info)
 *   shadowed    — a rule of higher priority matches every call this one matches and decides otherwise: it never
 *                 decides (warning)
 *   covered     — the same, with the same decision (info: removing it changes nothing)
 * Pure.
 */
import type { Finding } from "@/lib/hygiene/types";
import type { GeminiStores } from "./io/stores";
import type { GeminiListing } from "./listing";
import { ALWAYS_ALLOW_PRIORITY_FRACTION, type GeminiRule } from "./types";

const CONDITIONS = ["argsPattern", "subagent", "toolAnnotations", "interactive"] as const;

/** Does `wide` match every call `narrow` matches (both first-match candidates)? Conservative: unsure is no. */
export function ruleCovers(wide: GeminiRule, narrow: GeminiRule): boolean {
  const name = wide.toolName;
  const toolOk =
    name === "*" ||
    (name === narrow.toolName && (wide.mcpName === undefined || wide.mcpName === narrow.mcpName)) ||
    (name === "mcp_*" && narrow.toolName.startsWith("mcp_")) ||
    (name.startsWith("mcp_") && name.endsWith("_*") && narrow.toolName.startsWith(name.slice(0, -1)));
  if (!toolOk) return false;
  if (wide.mcpName !== undefined && wide.mcpName !== "*" && wide.mcpName !== narrow.mcpName) return false;
  for (const k of CONDITIONS) {
    if (wide[k] === undefined) continue;
    if (k === "argsPattern") {
      if (!narrow.argsPattern || wide.argsPattern!.source !== narrow.argsPattern.source) return false;
    } else if (JSON.stringify(wide[k]) !== JSON.stringify(narrow[k])) return false;
  }
  if (wide.modes?.length) {
    if (!narrow.modes?.length) return false;
    if (!narrow.modes.every((m) => wide.modes!.includes(m))) return false;
  }
  return true;
}

const at = (r: GeminiRule) => `${r.origin?.file ?? r.source}${r.origin?.line ? `:${r.origin.line}` : ""}`;

export function lintGemini(listing: Pick<GeminiListing, "located">, stores: GeminiStores): Finding[] {
  const findings: Finding[] = [];
  // Files Gemini drops whole.
  for (const f of stores.files) {
    if (!f.invalid || f.tier === "default") continue;
    const e = f.errors[0];
    findings.push({
      kind: "ineffective",
      severity: "error",
      entry: f.path,
      message: `Gemini drops all of ${f.path}: ${e?.message ?? "invalid"}${e?.details ? ` (${e.details})` : ""}. None of its rules, denies included, applies until it is fixed.`,
    });
  }
  const idOf = new Map<GeminiRule, string>();
  const seen = new Map<string, string>();
  for (const l of listing.located) {
    if (l.target.kind !== "table") continue;
    const { file, index } = l.target;
    if (file.tier === "default") continue;
    const id = l.entry.id;
    if (!file.loaded) {
      findings.push({
        kind: "ineffective",
        severity: "warning",
        entry: id,
        message: `${l.entry.rule} decides nothing: ${file.notLoadedReason ?? "Gemini does not load this file"}.`,
      });
      continue;
    }
    if (l.entry.malformed) {
      findings.push({
        kind: "ineffective",
        severity: "warning",
        entry: id,
        message: `Gemini drops this rule: ${l.entry.malformed}.`,
      });
      continue;
    }
    const key = `${file.tier}\0${l.entry.rule}`;
    const first = seen.get(key);
    if (first) {
      findings.push({
        kind: "duplicate",
        severity: "info",
        entry: id,
        by: first,
        message: `The same rule is already in this tier (${l.entry.rule}): removing one changes nothing.`,
      });
      continue;
    }
    seen.set(key, id);
    for (const r of file.rules.filter((x) => x.origin?.ruleIndex === index)) idOf.set(r, id);
  }
  // First match wins, in the engine's order: priority, then load order.
  const ordered = stores.rules
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.priority - a.r.priority || a.i - b.i)
    .map((x) => x.r);
  const flagged = new Set<string>();
  for (const [i, rule] of ordered.entries()) {
    const id = idOf.get(rule);
    if (!id || flagged.has(id)) continue;
    if (stores.disableAlwaysAllow && Math.round((rule.priority % 1) * 1000) === ALWAYS_ALLOW_PRIORITY_FRACTION) {
      flagged.add(id);
      findings.push({
        kind: "ineffective",
        severity: "warning",
        entry: id,
        message: "security.disableAlwaysAllow (or admin.secureModeEnabled) makes Gemini ignore every …950 rule.",
      });
      continue;
    }
    const over = ordered.slice(0, i).find((w) => ruleCovers(w, rule));
    if (!over) continue;
    flagged.add(id);
    const by = idOf.get(over);
    const same = over.decision === rule.decision;
    findings.push({
      kind: same ? "covered" : "shadowed",
      severity: same ? "info" : "warning",
      entry: id,
      ...(by ? { by } : {}),
      message: same
        ? `${over.source} (${at(over)}, priority ${over.priority.toFixed(3)}) already ${over.decision}s every call this rule matches: removing it changes nothing.`
        : `${over.source} (${at(over)}, priority ${over.priority.toFixed(3)}) matches every call this rule matches first and decides ${over.decision}: this ${rule.decision} never decides.`,
    });
  }
  return findings;
}
