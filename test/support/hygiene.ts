// Fixtures for the hygiene tests: entries as listEntries would list them, without files.
import { dialectOf } from "@/lib/agents/dialects";
import { parseMevedelGrant, parseMevedelRuleText, parseRule, type Action, type Agent, type Scope } from "@/lib/policy";
import type { Entry } from "@/lib/stores/types";
import type { LintItem } from "@/lib/hygiene/types";

export const WS = "/w";
export const HOME = "/home/u";

/** Files of the agents whose rules lib/policy reads (the others have their own lint). */
const FILES: Partial<Record<Agent, Record<string, { path: string; base: string }>>> = {
  "claude-code": {
    workspace: { path: `${WS}/.claude/settings.json`, base: WS },
    local: { path: `${WS}/.claude/settings.local.json`, base: WS },
    global: { path: `${HOME}/.claude/settings.json`, base: `${HOME}/.claude` },
    managed: { path: "/etc/claude-code/managed-settings.json", base: "/etc/claude-code" },
  },
  commandcode: {
    workspace: { path: `${WS}/.commandcode/settings.json`, base: WS },
    local: { path: `${WS}/.commandcode/settings.local.json`, base: WS },
    global: { path: `${HOME}/.commandcode/settings.json`, base: WS },
  },
  mevedel: {
    workspace: { path: `${WS}/.mevedel/permissions.el`, base: WS },
    global: { path: `${HOME}/.mevedel/permissions.el`, base: WS },
  },
};

export type Where = "workspace" | "local" | "global" | "managed" | "session" | `session:${string}`;

let counter = 0;

/** One entry: `text` is rule text (JSON agents), a plist rule or `(:path …)` grant (mevedel). */
export function item(agent: Agent, where: Where, action: Action, text: string, id?: string): LintItem {
  const session = where.startsWith("session");
  const scope: Scope = session ? "session" : where === "local" ? "workspace" : (where as Scope);
  const file = session ? { path: "database", base: WS } : FILES[agent]![where]!;
  const sessionId = session ? (where.split(":")[1] ?? "s1") : undefined;
  const source = { scope, store: session ? `session:${sessionId}` : file.path, base: file.base };
  const entryId = id ?? `e${++counter}`;
  const entry: Entry = {
    id: entryId,
    scope,
    kind: "rule",
    agent,
    action,
    rule: text,
    tool: null,
    specifier: null,
    store: { path: file.path, format: "claude-json", version: "v", valid: true },
    line: counter,
    writable: true,
    ...(session ? { agentSessionId: sessionId } : {}),
  };
  if (agent === "mevedel" && text.startsWith("(:path")) {
    const g = parseMevedelGrant(text, HOME);
    if (!g.ok) throw new Error(g.error);
    entry.kind = "grant";
    return { entry, rule: null, grant: g.value };
  }
  const r =
    agent === "mevedel" && text.startsWith("(")
      ? parseMevedelRuleText(text, source, dialectOf(agent))
      : parseRule(text, action, { dialect: dialectOf(agent), source });
  if (!r.ok) {
    entry.malformed = r.error;
    return { entry, rule: null };
  }
  if (r.value.profile) entry.kind = "profile";
  return { entry, rule: r.value };
}
