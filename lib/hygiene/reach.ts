/**
 * Who an entry reaches. Removing entry A because B already does the job is only safe when B reaches
 * everyone A reaches: a session rule reaches one agent session, settings.local.json one person in one
 * project, the project's settings.json every collaborator of the project, a global file one person in
 * every project, managed settings everyone on the machine. The project file and the global file are
 * incomparable (teammates vs. your other projects), so neither is ever removed in favour of the other.
 */
import { ruleTraitsOf } from "@/lib/agents";
import type { Rule } from "@/lib/policy";
import type { LintItem } from "./types";

export type Reach = "session" | "local" | "project" | "global" | "managed";

const WIDER: Record<Reach, Reach[]> = {
  session: ["session", "local", "project", "global", "managed"],
  local: ["local", "project", "global", "managed"],
  project: ["project"],
  global: ["global", "managed"],
  managed: ["managed"],
};

export function reachOf(item: LintItem): Reach {
  const e = item.entry;
  if (e.scope === "session") return "session";
  if (e.scope === "managed") return "managed";
  if (e.scope === "global") return "global";
  return e.store.path.endsWith(".local.json") ? "local" : "project";
}

/** Does `keeper` reach at least everyone `removed` reaches? */
export function reachesAll(keeper: LintItem, removed: LintItem): boolean {
  const k = reachOf(keeper);
  const r = reachOf(removed);
  if (r === "session" && k === "session") return keeper.entry.agentSessionId === removed.entry.agentSessionId;
  return WIDER[r].includes(k);
}

/** Agents resolving by bucket resolve allow/ask innermost first: session, then persistent (workspace + global). */
export const bucketOf = (item: LintItem): "session" | "persistent" =>
  item.entry.scope === "session" ? "session" : "persistent";

/** Rank for "which one to keep" among identical entries: wider reach first, then file order. */
export const REACH_RANK: Record<Reach, number> = { session: 0, local: 1, global: 2, project: 3, managed: 4 };

/**
 * A path rule `/x` of an agent that anchors it at the settings file's folder (Claude Code: `~/.claude` for the
 * user file): the same text means different paths in different files.
 */
export function storeAnchored(r: Rule): boolean {
  return (
    ruleTraitsOf(r.agent).slashFromStoreFolder === true &&
    r.specifier?.kind === "path" &&
    /^\/(?!\/)/.test(r.specifier.pattern.trim())
  );
}

/** Whether bucket resolution decides between this agent's rules (`RuleTraits.precedence`). */
export const byBucket = (agent: string) => ruleTraitsOf(agent).precedence === "buckets";

/** Two path rules can only be compared when their anchors agree. */
export function sameAnchor(a: Rule, b: Rule): boolean {
  if (!storeAnchored(a) && !storeAnchored(b)) return true;
  return (a.source.base ?? "") === (b.source.base ?? "");
}

export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
