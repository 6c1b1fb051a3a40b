/**
 * A prefix index over rules, so coverage checks stay near-linear with thousands of rules. A rule can only
 * cover another when its literal lead (specifier text up to the first `*`) is a prefix of the other's
 * specifier text — true for every form `isNarrower` proves (shell prefixes, `dir/**` paths, `*.x.com`).
 */
import type { Rule } from "@/lib/policy";
import { callNames } from "@/lib/policy/tools";
import type { LintItem } from "./types";

export function specText(rule: Rule): string {
  const s = rule.specifier;
  if (!s) return "";
  switch (s.kind) {
    case "param":
      return `${s.name}:${s.value}`;
    case "expression":
      return s.value;
    default:
      return s.pattern;
  }
}

const lead = (rule: Rule) => {
  const t = specText(rule);
  const i = t.indexOf("*");
  return i === -1 ? t : t.slice(0, i);
};

const serverOf = (tool: string) => {
  const segs = tool.toLowerCase().split("__");
  return segs[0] === "mcp" && segs.length >= 2 && !segs[1].includes("*") ? `mcp__${segs[1]}` : null;
};

/** Where a specifier-less rule is filed: its tool name, or its MCP server for `mcp__server__get_*` globs. */
function bareKey(tool: string): string {
  if (!tool.includes("*")) return tool.toLowerCase();
  return serverOf(tool) ?? "*";
}

export class RuleIndex {
  private bare = new Map<string, LintItem[]>();
  private byKey = new Map<string, LintItem[]>();

  constructor(items: Iterable<LintItem>) {
    for (const it of items) {
      const r = it.rule!;
      if (!r.specifier) {
        const k = bareKey(r.tool);
        const list = this.bare.get(k);
        if (list) list.push(it);
        else this.bare.set(k, [it]);
        continue;
      }
      const k = lead(r);
      const list = this.byKey.get(k);
      if (list) list.push(it);
      else this.byKey.set(k, [it]);
    }
  }

  /** Items that might cover `rule` (a superset; the caller proves it). */
  candidates(rule: Rule): LintItem[] {
    const t = specText(rule);
    // A bare rule covers by tool name: the call names the rule's tool answers to, its MCP server, or a glob.
    const out: LintItem[] = [];
    const server = serverOf(rule.tool);
    for (const k of new Set([...callNames(rule.tool), ...(server ? [server] : []), "*"])) {
      const l = this.bare.get(k);
      if (l) out.push(...l);
    }
    if (!rule.specifier) return out;
    // Every prefix of the text is a possible lead: a handful of map lookups instead of a scan.
    for (let n = 0; n <= t.length; n++) {
      const l = this.byKey.get(t.slice(0, n));
      if (l) out.push(...l);
    }
    return out;
  }
}
