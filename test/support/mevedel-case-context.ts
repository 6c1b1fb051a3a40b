// Builds the policy context a mevedel case runs in (shared by the agreement test and bench/mevedel-agreement).
import { dialect } from "@/lib/agents/mevedel/dialect";
import { parseMevedelRuleText } from "@/lib/policy/mevedel-rules";
import type { PolicyContext, Rule, RuleSource, ShellParser } from "@/lib/policy/types";
import type { MevedelCase } from "./mevedel-cases";

export const CASE_HOME = "/home/u";

function parse(texts: string[] | undefined, source: RuleSource): Rule[] {
  return (texts ?? []).map((text) => {
    const r = parseMevedelRuleText(text, source, dialect);
    if (!r.ok) throw new Error(`${text}: ${r.error}`);
    return r.value;
  });
}

/** The case's context: its mode, buckets, grants and symlinks; tmp is /tmp, as on Linux. */
export function caseContext(c: MevedelCase, shell: ShellParser | null): PolicyContext {
  const ws = c.workspace ?? "/w";
  const persistent: RuleSource = { scope: "workspace", store: `${ws}/.mevedel/permissions.el` };
  const global: RuleSource = { scope: "global", store: `${CASE_HOME}/.mevedel/permissions.el` };
  const session: RuleSource = { scope: "session", store: "session:s1" };
  const grantSource = persistent;
  return {
    dialect,
    mode: c.mode,
    workspaceRoot: ws,
    home: CASE_HOME,
    tmpDirs: ["/tmp"],
    rules: [...parse(c.persistent, persistent), ...parse(c.global, global)],
    sessionRules: parse(c.session, session),
    grants: (c.grants ?? []).map((g) => ({ ...g, source: grantSource })),
    resolveSymlink: (p) => c.links?.[p] ?? null,
    shell,
  };
}
