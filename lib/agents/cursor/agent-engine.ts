/**
 * Cursor's dialect of the engine behind the agent interface: its call shapes (`parseCursorCall`), its modes, its stores
 * read for one folder, and session entries as tokens. Deciding is `decide.ts` (pure); this maps its answer onto the
 * cockpit's decision and labels the readings the docs leave open ("inferred").
 */
import os from "node:os";
import path from "node:path";
import type { Cause, Decision, StepName, ToolCall } from "@/lib/policy";
import { cockpitProtectedPaths } from "@/lib/stores/policy-context";
import { loadShellParser } from "../shared/shell-parser";
import type { AgentDecision, AgentEngine, AgentSnapshot, DecideRequest, RememberOffer } from "../types";
import { parseCursorCall, type CursorCall } from "./call";
import type { CursorRule } from "./config";
import {
  CURSOR_MODES,
  decideCursor,
  normalizeCursorMode,
  type CursorContext,
  type CursorDecision,
  type CursorStoreView,
} from "./decide";
import { info } from "./info";
import { loadCursorContext } from "./io/context";
import type { CursorStore } from "./io/stores";
import { storeInfos } from "./listing";
import { rememberCursor, tokenFor } from "./remember";
import { parseToken } from "./tokens";

/** The cockpit's call shape for a Cursor call (what `parseCursorCall` reads back). */
export function toolCallOf(call: CursorCall): ToolCall {
  switch (call.tool) {
    case "Shell":
      return { tool: "Shell", input: { command: call.command, ...(call.cwd ? { cwd: call.cwd } : {}) } };
    case "Read":
    case "Write":
      return { tool: call.tool, input: { path: call.path } };
    case "WebFetch":
      return { tool: "WebFetch", input: { url: call.url } };
    case "Mcp":
      return {
        tool: "Mcp",
        input: {
          ...(call.server ? { server: call.server } : {}),
          tool: call.name,
          ...(call.arguments !== undefined ? { arguments: call.arguments } : {}),
        },
      };
  }
}

/** Cursor's environment as the cockpit sees it: only for the user's own home (tests point `home` elsewhere). */
export function cursorEnv(home: string): Record<string, string | undefined> {
  if (path.resolve(home) !== path.resolve(os.homedir())) return {};
  return { CURSOR_CONFIG_DIR: process.env.CURSOR_CONFIG_DIR, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
}

const STEPS = new Set<string>(["deny-rule", "allow-rule", "fallback", "yolo", "invalid-store", "protected-path"]);

function causeOf(d: CursorDecision): Cause {
  if (d.protected) return "protected-resource";
  if (d.step === "fallback") return "mode";
  if (d.step === "invalid-store") return "safety";
  return "rule";
}

/** The cockpit's decision for Cursor's: an inferred reading says so in its reason (the contract's one line). */
export function toDecision(d: CursorDecision): Decision {
  const reason = d.inferred ? `inferred: ${d.reason} (${d.inferredWhy.join("; ")})` : d.reason;
  return {
    decision: d.decision,
    step: d.step,
    rule: d.rule,
    scope: d.scope,
    store: d.store,
    reason,
    trace: d.trace.map((t) => ({
      step: (STEPS.has(t.step) ? t.step : d.step) as StepName,
      outcome: t.outcome,
      why: STEPS.has(t.step) ? t.why : `${t.step}: ${t.why}`,
    })),
    cause: causeOf(d),
    warnings: [...d.warnings, ...(d.inferred ? ["inferred"] : [])],
    safetyCheck: Boolean(d.protected),
    ...(d.protected ? { protected: true } : {}),
  };
}

function sessionStore(sessionId: string, tokens: readonly string[]): CursorStoreView | null {
  const store = `session:${sessionId}`;
  const rules: CursorRule[] = [];
  for (const text of tokens) {
    const parsed = parseToken(text);
    if (!parsed.ok) continue; // listed as malformed; decides nothing
    const index = rules.length;
    rules.push({ action: "allow", text, token: parsed.token, store, scope: "workspace", index, line: 0 });
  }
  if (!rules.length) return null;
  return { path: store, scope: "workspace", valid: true, strictJson: true, definesAllow: true, rules };
}

interface CursorSnapshotInput {
  paths: AgentSnapshot["paths"];
  stores: CursorStore[];
  ctx: CursorContext;
  sessionId: string;
  sessionAllows: string[];
}

export function cursorSnapshot(input: CursorSnapshotInput): AgentSnapshot {
  const session = sessionStore(input.sessionId, input.sessionAllows);
  const contextFor = (req: DecideRequest): { ctx: CursorContext; call: CursorCall } | { error: string } => {
    const parsed = parseCursorCall(req.call);
    if (!parsed.ok) return { error: parsed.error };
    const mode = normalizeCursorMode(req.mode ?? undefined) ?? "default";
    const cwd = req.cwd ? path.resolve(input.paths.workspace, req.cwd) : input.ctx.cwd;
    return { ctx: { ...input.ctx, mode, cwd }, call: parsed.call };
  };

  const decideOne = (req: DecideRequest): { d: CursorDecision; mode: string } | { error: string } => {
    const c = contextFor(req);
    if ("error" in c) return c;
    const d = decideCursor(c.call, c.ctx);
    if (d.decision !== "ask" || d.protected || d.step === "invalid-store" || !session) return { d, mode: c.ctx.mode! };
    // "Allow for this session": the session's tokens, with every deny entry still in force.
    const denies = c.ctx.stores.map((s) => ({ ...s, rules: s.rules.filter((r) => r.action === "deny") }));
    const s = decideCursor(c.call, { ...c.ctx, stores: [...denies, session] });
    if (s.decision === "allow" && s.step === "allow-rule")
      return { d: { ...s, scope: "workspace", store: session.path }, mode: c.ctx.mode! };
    return { d, mode: c.ctx.mode! };
  };

  const out = (r: ReturnType<typeof decideOne>, asked: boolean): AgentDecision => {
    if ("error" in r) {
      const decision: Decision = {
        decision: "ask",
        step: "fallback",
        rule: null,
        scope: null,
        store: null,
        reason: `the call is not one Cursor's permissions describe (${r.error}): a person decides`,
        trace: [{ step: "fallback", outcome: "decided", why: r.error }],
        cause: "safety",
        warnings: [],
        safetyCheck: false,
      };
      return { decision, modeBase: "default", modeEffective: "default" };
    }
    let decision = toDecision(r.d);
    if (r.d.store?.startsWith("session:")) decision = { ...decision, scope: "session" };
    // A person is asked: only an entry settles it as allow (not force mode, not an inferred reading).
    if (asked && decision.decision === "allow" && (r.d.inferred || r.d.step !== "allow-rule")) {
      const why = r.d.inferred
        ? "an inferred allow needs a person"
        : `${r.d.step === "yolo" ? "the mode" : "no entry"} is no authority for an asked call`;
      decision = {
        ...decision,
        decision: "ask",
        reason: `${why} (the cockpit's reading: ${decision.reason})`,
        trace: [...decision.trace, { step: decision.step, outcome: "decided", why }],
      };
    }
    return {
      decision,
      modeBase: r.mode,
      modeEffective: r.mode,
      explain: { inferred: r.d.inferred, inferredWhy: r.d.inferredWhy },
    };
  };

  return {
    agent: info.id,
    paths: input.paths,
    stores: storeInfos(input.stores, input.paths),
    decide: (req) => out(decideOne(req), false),
    decideAsked: (req) => out(decideOne(req), true),
    remember(req): RememberOffer {
      const c = contextFor(req);
      if ("error" in c) return { session: [], workspace: [], workspaceStore: null };
      const t = tokenFor(c.call, c.ctx);
      const saved = rememberCursor(c.call, c.ctx);
      const rel = saved.ok ? path.relative(input.paths.workspace, saved.file) || saved.file : null;
      return {
        session: "token" in t ? [t.token] : [],
        workspace: saved.ok ? [saved.token] : [],
        workspaceStore: rel,
      };
    },
  };
}

export const engine: AgentEngine = {
  parseMode(mode) {
    const m = normalizeCursorMode(mode);
    return m
      ? { ok: true, value: m }
      : { ok: false, error: `unknown Cursor mode "${mode}" (use ${CURSOR_MODES.join(", ")})` };
  },
  parseCall(raw) {
    const parsed = parseCursorCall(raw);
    return parsed.ok ? { ok: true, value: toolCallOf(parsed.call) } : { ok: false, error: parsed.error };
  },
  async load({ paths, cwd, sessionRows, sessionId }) {
    const shell = await loadShellParser();
    const ctx = await loadCursorContext({
      home: paths.home,
      env: cursorEnv(paths.home),
      workspace: paths.workspace,
      ...(cwd ? { cwd } : {}),
      shell,
      protectedPaths: cockpitProtectedPaths(),
    });
    const sessionAllows = (sessionRows ?? [])
      .filter((r) => r.agent === info.id && r.agentSessionId === sessionId && r.action === "allow")
      .map((r) => r.rule);
    return cursorSnapshot({ paths, stores: ctx.stores, ctx, sessionId: sessionId ?? "", sessionAllows });
  },
  async isToolWide(rule) {
    const parsed = parseToken(rule);
    if (!parsed.ok) return false;
    const inner = /\((.*)\)\s*$/s.exec(parsed.token.text)?.[1] ?? "";
    return /^[\s*?:,]*$/.test(inner);
  },
  describeRule(rule) {
    const parsed = parseToken(rule);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    return {
      ok: true,
      value: { tool: parsed.token.kind, specifier: /\((.*)\)\s*$/s.exec(parsed.token.text)?.[1] ?? null },
    };
  },
};
