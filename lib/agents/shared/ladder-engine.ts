/**
 * The engine of agents whose calls lib/policy's decision ladder decides (seed 002): their settings files are read by
 * lib/stores, their rules parsed by lib/policy in the agent's dialect. An agent folder builds its engine with
 * `ladderEngine(dialect)`; nothing here knows which agent it serves.
 */
import path from "node:path";
import { z } from "zod";
import type { RememberOption } from "@/db/schema/cards";
import { rememberOffers } from "@/lib/hygiene/remember-offers";
import { coveringRule } from "@/lib/hygiene/remembering";
import {
  explicitAllow,
  normalizeMode,
  rememberChoices,
  withSuggestions,
  type Decision,
  type Dialect,
  type PolicyContext,
  type ToolCall,
} from "@/lib/policy";
import { isToolWideText } from "@/lib/policy/tool-wide";
import { targetStore, type StorePaths } from "@/lib/stores/discover";
import { parseAnyRule, specifierText } from "@/lib/stores/policy-adapter";
import type { AgentDecision, AgentEngine, AgentSnapshot, DecideRequest, RememberOffer } from "../types";
import { contextOf, decideWith, loadPolicy, type LadderOptions, type PolicySnapshot } from "./ladder-snapshot";
import { loadShellParser } from "./shell-parser";

const Call = z.object({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) });

export function ladderEngine(dialect: Dialect, options: LadderOptions = {}): AgentEngine {
  return {
    parseMode: (mode) => normalizeMode(dialect, mode),
    parseCall(raw) {
      const call = Call.safeParse(raw);
      if (call.success) return { ok: true, value: call.data };
      const issue = call.error.issues[0]!;
      return { ok: false, error: `${issue.path.join(".") || "call"} ${issue.message}` };
    },
    async load({ paths, sessionRows, sessionId }) {
      return ladderSnapshot(await loadPolicy({ paths, dialect, ...options, sessionRows, sessionId }));
    },
    isToolWide: async (rule) => isToolWideText(rule, dialect, await loadShellParser()),
    describeRule(rule, action) {
      const parsed = parseAnyRule(rule, action, dialect.id, { scope: "session", store: "session:probe" });
      return parsed.ok
        ? { ok: true, value: { tool: parsed.value.tool, specifier: specifierText(parsed.value.specifier) } }
        : parsed;
    },
  };
}

function ladderSnapshot(snap: PolicySnapshot): AgentSnapshot {
  const decideOne = (req: DecideRequest): AgentDecision & { ctx: PolicyContext } => {
    const { decision, ctx, modeBase, modeEffective, ignoredDefault } = decideWith(snap, req);
    return {
      decision,
      ctx,
      modeBase,
      modeEffective,
      ...(ignoredDefault ? { ignoredDefault } : {}),
      explain: { mode: ctx.mode },
    };
  };
  const strip = ({ ctx: _ctx, ...d }: AgentDecision & { ctx: PolicyContext }): AgentDecision => d;
  return {
    agent: snap.agent,
    paths: snap.paths,
    stores: snap.inputs.stores,
    decide: (req) => strip(decideOne(req)),
    decideAsked(req) {
      const d = decideOne(req);
      return strip({ ...d, decision: forAskedCall(req.call, d.ctx, d.decision) });
    },
    remember: (req) => rememberOffer(snap, req),
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

const NOTHING: RememberOffer = { session: [], workspace: [], workspaceStore: null };

/**
 * What remembering would store: the chooser built from the request (this exact command, its sub-command, the
 * program…, narrowest first, the agent's own suggestions within those bounds), each choice with the lint's verdict
 * (an error is never offered), and which stored allow already covers each proposed rule.
 */
function rememberOffer(snap: PolicySnapshot, req: DecideRequest): RememberOffer {
  const { ctx } = contextOf(snap, req);
  const choices = withSuggestions(req.call, ctx, rememberChoices(req.call, ctx), req.suggestions ?? []);
  if (choices.length === 0) return NOTHING;
  const store = targetStore(snap.paths, snap.agent, "workspace");
  const workspaceStore = path.relative(snap.paths.workspace, store.path);
  const source = { scope: "workspace" as const, store: store.path, base: snap.paths.workspace };
  const offers = rememberOffers(choices, {
    agent: snap.agent,
    source,
    format: store.format,
    parse: (text) => parseAnyRule(text, "allow", snap.agent, source),
    workspace: snap.paths.workspace,
    home: snap.paths.home,
  });
  if (offers.length === 0) return NOTHING;
  // "When remembering": an allow already in a store (same or wider scope) that covers a proposed rule.
  const coveredOf = (rules: readonly string[]): NonNullable<RememberOffer["coveredBy"]> =>
    rules.map((text) => {
      const r = coveringRule(text, snap.agent, source, snap.inputs.rules);
      return r ? { rule: r.text, store: storeLabel(r.source.store, snap.paths), scope: r.source.scope } : null;
    });
  const options: RememberOption[] = offers.map((o) => {
    const coveredBy = coveredOf(o.rules);
    return coveredBy.some(Boolean) ? { ...o, coveredBy } : o;
  });
  const first = options[0]!;
  const wide = first.rules.filter((r) => isToolWideText(r, snap.dialect, ctx.shell ?? null));
  return {
    session: first.rules,
    workspace: first.rules,
    workspaceStore,
    ...(first.coveredBy ? { coveredBy: coveredOf(first.rules) } : {}),
    ...(wide.length ? { wide } : {}),
    options,
  };
}

/** `.claude/settings.json`, `~/.claude/settings.json` or the absolute path (managed). */
function storeLabel(file: string, paths: StorePaths): string {
  if (file.startsWith(path.resolve(paths.workspace) + path.sep)) return path.relative(paths.workspace, file);
  const home = path.resolve(paths.home);
  if (file.startsWith(home + path.sep)) return `~/${path.relative(home, file)}`;
  return file;
}
