import path from "node:path";
import type { DbOrTx } from "@/db/client";
import type { CardRemember, RememberOption } from "@/db/schema";
import { dialectOf } from "@/lib/agents";
import { storeEnv } from "@/lib/config/env";
import { coveringRule } from "@/lib/hygiene/remembering";
import { rememberOffers } from "@/lib/hygiene/remember-offers";
import { isToolWideText } from "@/lib/policy/tool-wide";
import { decideWith, loadPolicy, type PolicySnapshot } from "@/lib/policy-runtime/snapshot";
import {
  explicitAllow,
  rememberChoices,
  withSuggestions,
  type Agent,
  type Decision,
  type Mode,
  type PolicyContext,
  type ToolCall,
} from "@/lib/policy";
import { sessionEntriesVersioned } from "@/lib/session-entries/session-entries";
import { targetStore, type StorePaths } from "@/lib/stores/discover";
import { storePaths } from "@/lib/stores/store-paths";

/**
 * Overrides of where the stores live (tests point `home` at a temp folder and switch off the managed
 * file); unset fields come from `storePaths` (the environment), as for the CLI and the Rules page.
 */
export interface CardEnv {
  home?: string;
  managedSettingsPath?: string | null;
  now?: () => Date;
}

export { CARD_AGENTS, type CardAgent } from "@/lib/agents";

/** The engine dialect of a card's agent (the simulator speaks Claude Code's: Bash, Edit, …). */
export function policyAgent(agent: string): Agent {
  return dialectOf(agent);
}

export interface Evaluation {
  decision: Decision;
  modeBase: Mode;
  modeEffective: Mode;
  remember: CardRemember;
}

export interface EvaluateInput {
  agent: string;
  workspacePath: string;
  rootSessionId: string;
  mode?: string | null;
  cwd?: string | null;
  call: ToolCall;
  /**
   * The agent itself decided to ask (Claude Code's PermissionRequest, Codex's): it already weighed the rules in its
   * own files, so those never turn this into an allow (the floor, see `agentFloor`).
   */
  agentAsked?: boolean;
  /** Rules a person just saved through the cockpit (coalescing after an answer): authority the floor accepts. */
  savedRules?: readonly string[];
  /** Rules the agent suggested remembering (Claude Code's `permission_suggestions`), one list per suggestion. */
  suggestions?: readonly (readonly string[])[];
}

const AGENT_NAMES: Record<string, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  commandcode: "Command Code",
  mevedel: "mevedel",
  gemini: "Gemini CLI",
  cursor: "Cursor CLI",
};

/** The why-line a floored card shows. */
export function agentAskedReason(agent: string): string {
  return `${AGENT_NAMES[agent] ?? agent} asked; no rule of the cockpit's may approve it`;
}

/**
 * The floor: when the agent itself asked, an allow stands only on authority the cockpit holds itself — an answer a
 * person gave in the cockpit ("allow for this session": a session entry in the cockpit's database) or a rule a
 * person has just saved through the cockpit while this card waited. Rules in the agent's own settings files were
 * already weighed by the agent, which still asked: if they seem to allow, the emulation is wrong, not the agent, so
 * the card waits for a person. Denies stand (the cockpit may be stricter).
 */
export function agentFloor(
  d: Decision,
  { agent, agentAsked, savedRules }: { agent: string; agentAsked?: boolean; savedRules?: readonly string[] },
): Decision {
  if (!agentAsked || d.decision !== "allow") return d;
  if (d.scope === "session" || d.store?.startsWith("session:")) return d;
  if (d.rule !== null && savedRules?.includes(d.rule)) return d;
  const why = agentAskedReason(agent);
  return {
    ...d,
    decision: "ask",
    reason: `${why} (the cockpit's reading: ${d.reason})`,
    trace: [...d.trace, { step: d.step, outcome: "decided", why }],
  };
}

/**
 * Every call the cockpit sees was already put to a person by the agent: only an explicit allow rule
 * (a store rule or a session entry) settles it without one. Heuristic allows (read-only, accept-edits,
 * yolo, plan, always-allowed, subagent) become asks; denies and asks stand.
 */
export function forAskedCall(call: ToolCall, ctx: PolicyContext, d: Decision): Decision {
  if (d.decision !== "allow") return d;
  const explicit = explicitAllow(call, ctx);
  if (explicit) return explicit;
  const why = "the agent asked a person: only an explicit allow rule settles it without one";
  return {
    ...d,
    decision: "ask",
    reason: `${d.reason}; ${why}`,
    trace: [...d.trace, { step: d.step, outcome: "decided", why }],
  };
}

/** The store paths of a card's workspace: `storePaths` from the environment, with a test's overrides. */
export function cardStorePaths(workspacePath: string, env: CardEnv = {}): StorePaths {
  const paths = storePaths(storeEnv(), workspacePath);
  return {
    ...paths,
    ...(env.home !== undefined ? { home: path.resolve(/*turbopackIgnore: true*/ env.home) } : {}),
    ...(env.managedSettingsPath !== undefined ? { managedSettingsPath: env.managedSettingsPath } : {}),
  };
}

/**
 * One snapshot for one root session's calls: the agent's stores for the workspace and $HOME (parsed
 * once per file version) plus the session rules of the root session (children share the root's
 * authority). Evaluate any number of calls against it with `evaluateWith`.
 */
export async function cardSnapshot(
  db: DbOrTx,
  workspaceId: string,
  input: { agent: string; workspacePath: string; rootSessionId: string },
  env: CardEnv = {},
): Promise<PolicySnapshot> {
  const sessionRows = await sessionEntriesVersioned(db, { workspaceId, agentSessionId: input.rootSessionId });
  return loadPolicy({
    paths: cardStorePaths(input.workspacePath, env),
    agent: policyAgent(input.agent),
    sessionRows,
    sessionId: input.rootSessionId,
  });
}

/** Current policy for one call from a snapshot; a safety check offers nothing to remember. No I/O. */
export function evaluateWith(
  snapshot: PolicySnapshot,
  input: Pick<EvaluateInput, "mode" | "cwd" | "call" | "agentAsked" | "savedRules" | "suggestions">,
): Evaluation {
  const { ctx, modeBase, modeEffective, decision: raw } = decideWith(snapshot, input);
  const decision = agentFloor(forAskedCall(input.call, ctx, raw), {
    agent: snapshot.agent,
    agentAsked: input.agentAsked,
    savedRules: input.savedRules,
  });
  const choices =
    decision.decision === "ask" && !decision.safetyCheck
      ? withSuggestions(input.call, ctx, rememberChoices(input.call, ctx), input.suggestions ?? [])
      : [];
  if (choices.length === 0)
    return { decision, modeBase, modeEffective, remember: { session: [], workspace: [], workspaceStore: null } };
  const store = targetStore(snapshot.paths, snapshot.agent, "workspace");
  const workspaceStore = path.relative(snapshot.paths.workspace, store.path);
  const source = { scope: "workspace" as const, store: store.path, base: snapshot.paths.workspace };
  // The lint's verdict on each choice; one it calls an error (over-broad) is never offered.
  const offers = rememberOffers(choices, {
    agent: snapshot.agent,
    source,
    workspace: snapshot.paths.workspace,
    home: snapshot.paths.home,
  });
  if (offers.length === 0)
    return { decision, modeBase, modeEffective, remember: { session: [], workspace: [], workspaceStore: null } };
  // "When remembering": an allow already in a store (same or wider scope) that covers a proposed rule.
  const options: RememberOption[] = offers.map((o) => {
    const coveredBy = o.rules.map((text) => {
      const r = coveringRule(text, snapshot.agent, source, snapshot.inputs.rules);
      return r ? { rule: r.text, store: storeLabel(r.source.store, snapshot.paths), scope: r.source.scope } : null;
    });
    return coveredBy.some(Boolean) ? { ...o, coveredBy } : o;
  });
  const first = options[0]!;
  const wideRules = first.rules.filter((r) => isToolWideText(r, snapshot.agent, ctx.shell ?? null));
  const remember: CardRemember = {
    session: first.rules,
    workspace: first.rules,
    workspaceStore,
    ...(first.coveredBy ? { coveredBy: first.coveredBy } : {}),
    ...(wideRules.length ? { wide: wideRules } : {}),
    options,
  };
  return { decision, modeBase, modeEffective, remember };
}

/** Current policy for one call: a snapshot (see `cardSnapshot`) and one decision. */
export async function evaluateCall(
  db: DbOrTx,
  workspaceId: string,
  input: EvaluateInput,
  env: CardEnv = {},
): Promise<Evaluation> {
  return evaluateWith(await cardSnapshot(db, workspaceId, input, env), input);
}

/** `.claude/settings.json`, `~/.claude/settings.json` or the absolute path (managed). */
function storeLabel(file: string, paths: StorePaths): string {
  if (file.startsWith(path.resolve(paths.workspace) + path.sep)) return path.relative(paths.workspace, file);
  const home = path.resolve(paths.home);
  if (file.startsWith(home + path.sep)) return `~/${path.relative(home, file)}`;
  return file;
}
