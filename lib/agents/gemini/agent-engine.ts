/**
 * Gemini CLI's dialect of the engine behind the agent interface: its call shape (`{"tool","input","server"?}`), its
 * approval modes, its stores read as Gemini reads them for one folder, and session entries as rules ("allow for this
 * session", user tier + .950 as Gemini's in-memory rules). Deciding is `engine.ts` / `decide.ts` (pure); this maps
 * Gemini's verdict onto the cockpit's decision.
 */
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { Cause, Decision, Scope, StepName } from "@/lib/policy";
import { readStoreBytes } from "@/lib/stores/read-store";
import type { AgentDecision, AgentEngine, AgentSnapshot, DecideRequest, RememberOffer } from "../types";
import { decideWithStores } from "./decide";
import type { GeminiVerdict } from "./engine";
import type { HostFacts } from "./host";
import { info } from "./info";
import { realHost } from "./io/host";
import { loadGeminiShell } from "./io/shell-wasm";
import { geminiLocations, loadGeminiStores, type GeminiPaths, type GeminiStores } from "./io/stores";
import { geminiListing, TIER_SCOPE } from "./listing";
import { rememberRule } from "./remember";
import { parseRuleLine, ruleLine, rulesOfLine, specLine } from "./rule-text";
import type { GeminiShell } from "./shell";
import { modeFromFlag, type GeminiCall, type GeminiRule } from "./types";

export const GEMINI_MODES = ["default", "auto_edit", "yolo", "plan"] as const;

/** Gemini's call as `decide --call` and the agent API take it. */
export const GeminiCallSchema = z.object({
  tool: z.string().min(1).max(300),
  input: z.record(z.string(), z.unknown()).default({}),
  server: z.string().min(1).max(300).optional(),
});

/** Gemini's environment as the cockpit sees it: only for the user's own home (tests point `home` elsewhere). */
export function geminiEnv(home: string): Record<string, string | undefined> {
  if (path.resolve(home) !== path.resolve(os.homedir())) return {};
  const e = process.env;
  return {
    GEMINI_CLI_HOME: e.GEMINI_CLI_HOME,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: e.GEMINI_CLI_SYSTEM_SETTINGS_PATH,
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: e.GEMINI_CLI_SYSTEM_DEFAULTS_PATH,
    GEMINI_CLI_TRUSTED_FOLDERS_PATH: e.GEMINI_CLI_TRUSTED_FOLDERS_PATH,
    GEMINI_CLI_TRUST_WORKSPACE: e.GEMINI_CLI_TRUST_WORKSPACE,
  };
}

/** Where Gemini's files are for a workspace (`etcDir`: tests move `/etc`). */
export function geminiPathsOf(scope: { workspace: string; home: string; etcDir?: string }, cwd?: string): GeminiPaths {
  return {
    home: path.resolve(scope.home),
    cwd: path.resolve(cwd ?? scope.workspace),
    env: geminiEnv(scope.home),
    ...(scope.etcDir ? { systemDir: path.join(scope.etcDir, "gemini-cli") } : {}),
  };
}

/** Every store Gemini reads for the folder, and each file's version (for listings and compare-and-swap). */
export async function readGemini(
  scope: { workspace: string; home: string; etcDir?: string },
  cwd?: string,
): Promise<{ stores: GeminiStores; paths: GeminiPaths; versions: Map<string, string> }> {
  const paths = geminiPathsOf(scope, cwd);
  const stores = await loadGeminiStores(paths);
  const files = [
    ...stores.files.filter((f) => f.tier !== "default").map((f) => f.path),
    ...stores.settings.map((s) => s.path),
    stores.trust.file,
  ];
  const versions = new Map<string, string>();
  await Promise.all(
    files.map(async (f) => {
      versions.set(f, (await readStoreBytes(f)).version);
    }),
  );
  return { stores, paths, versions };
}

/** The rule text of a Gemini rule as the listing shows it (TOML tables), or its source for derived rules. */
function ruleTextOf(rule: GeminiRule, stores: GeminiStores): string {
  const o = rule.origin;
  if (o?.kind === "session") return o.setting ?? rule.source;
  if (o?.file && o.ruleIndex !== undefined) {
    const f = stores.files.find((x) => x.path === o.file || x.path.endsWith(`/${o.file}`));
    const t = f?.tables.find((x) => x.index === o.ruleIndex);
    if (t) return ruleLine(t.value);
  }
  const file = stores.files.find((f) => f.rules.includes(rule));
  if (file) {
    const i = file.rules.indexOf(rule);
    const t = file.tables[rule.origin?.ruleIndex ?? i];
    if (t) return ruleLine(t.value);
  }
  if (o?.setting) return `${o.setting} (${rule.source})`;
  return rule.source;
}

function storeOf(rule: GeminiRule, stores: GeminiStores): { store: string | null; scope: Scope | null } {
  const o = rule.origin;
  if (o?.kind === "session") return { store: o.file ?? "session", scope: "session" };
  const file = stores.files.find((f) => f.rules.includes(rule));
  if (file) return { store: file.path, scope: TIER_SCOPE[file.tier] };
  if (o?.kind === "settings") {
    const s = stores.settings.find((x) => x.path === o.file);
    return {
      store: o.file ?? null,
      scope: s?.scope === "workspace" ? "workspace" : s?.scope === "user" ? "global" : "managed",
    };
  }
  return { store: o?.file ?? null, scope: o ? TIER_SCOPE[o.tier] : null };
}

interface GeminiSnapshotInput {
  paths: AgentSnapshot["paths"];
  stores: GeminiStores;
  versions: Map<string, string>;
  shell: GeminiShell;
  host: HostFacts;
  session: GeminiRule[];
  autoSaved: string;
}

/** Is a matched allow Gemini's own authority (a rule someone wrote), not a built-in mode default or a heuristic? */
function explicitAllow(v: GeminiVerdict, mode: string): boolean {
  if (v.decision !== "allow" || !v.rule || v.rule.decision !== "allow") return false;
  if (v.rule.origin?.kind === "session") return true;
  void mode;
  return v.rule.origin?.tier !== "default" && !v.rule.source.startsWith("Default");
}

export function geminiSnapshot(input: GeminiSnapshotInput): AgentSnapshot {
  const { stores } = input;
  // Session rules join the engine's rules; the engine sorts by priority (ties keep this order).
  const withSession: GeminiStores = input.session.length
    ? { ...stores, rules: [...stores.rules, ...input.session] }
    : stores;

  const verdict = (req: DecideRequest) => {
    const parsed = GeminiCallSchema.safeParse(req.call);
    const call: GeminiCall = parsed.success
      ? {
          tool: parsed.data.tool,
          input: parsed.data.input,
          ...(parsed.data.server ? { server: parsed.data.server } : {}),
        }
      : { tool: req.call.tool, input: req.call.input };
    const host = req.cwd
      ? realHost(path.resolve(input.paths.workspace, req.cwd), { homeDir: input.host.homeDir })
      : input.host;
    const v = decideWithStores({
      call,
      stores: withSession,
      ...(req.mode ? { mode: req.mode } : {}),
      shell: input.shell,
      host,
    });
    return { call, v };
  };

  const toDecision = (v: ReturnType<typeof verdict>["v"], asked: boolean): AgentDecision => {
    const rule = v.rule;
    const where = rule ? storeOf(rule, withSession) : { store: null, scope: null };
    let step: StepName;
    let cause: Cause = "rule";
    if (rule && rule.decision === v.gemini) {
      if (v.decision === "deny") step = "deny-rule";
      else if (v.decision === "ask") step = "ask-rule";
      else if (v.mode === "yolo" && rule.origin?.tier === "default") step = "yolo";
      else if (v.mode === "autoEdit" && rule.origin?.tier === "default" && rule.priority < 1.02) step = "accept-edits";
      else step = "allow-rule";
      if (v.decision === "ask" && rule.origin?.tier === "default") cause = "mode";
    } else if (v.decision === "allow") {
      step = v.mode === "yolo" && !rule ? "yolo" : "read-only";
      cause = "mode";
    } else {
      step = v.decision === "deny" ? "deny-rule" : "fallback";
      cause = v.decision === "ask" ? "safety" : "rule";
    }
    let decision: Decision = {
      decision: v.decision,
      step,
      rule: rule ? ruleTextOf(rule, withSession) : null,
      scope: where.scope,
      store: where.store,
      reason: v.reason,
      trace: v.trace.map((why, i) => ({ step, outcome: i === v.trace.length - 1 ? "decided" : "passed", why })),
      cause,
      warnings: v.modeNote ? [v.modeNote] : [],
      safetyCheck: false,
    };
    if (!decision.trace.length) decision.trace.push({ step, outcome: "decided", why: v.reason });
    if (asked && decision.decision === "allow" && !explicitAllow(v, v.mode)) {
      const why = "Gemini's defaults and heuristics are no authority for a call a person is asked about";
      decision = {
        ...decision,
        decision: "ask",
        reason: `${why} (Gemini's reading: ${v.reason})`,
        trace: [...decision.trace, { step, outcome: "decided", why }],
      };
    }
    return {
      decision,
      modeBase: req_mode_name(v.mode),
      modeEffective: req_mode_name(v.mode),
      explain: {
        geminiDecision: v.gemini,
        mode: v.mode,
        ...(v.modeNote ? { modeNote: v.modeNote } : {}),
        ...(rule ? { priority: Number(rule.priority.toFixed(3)), source: rule.source } : {}),
      },
    };
  };

  const listing = geminiListing({
    stores,
    workspace: input.paths.workspace,
    home: input.paths.home,
    versions: input.versions,
  });

  return {
    agent: info.id,
    paths: input.paths,
    stores: listing.stores,
    decide: (req) => toDecision(verdict(req).v, false),
    decideAsked: (req) => toDecision(verdict(req).v, true),
    remember(req): RememberOffer {
      const { call, v } = verdict(req);
      const r = rememberRule(call, { mode: v.mode, shell: input.shell });
      if ("error" in r) return { session: [], workspace: [], workspaceStore: null };
      const text = specLine(r.rule);
      // Gemini ignores every …950 rule while security.disableAlwaysAllow is set: "always allow" would do nothing.
      return {
        session: [text],
        workspace: stores.disableAlwaysAllow ? [] : [text],
        workspaceStore: stores.disableAlwaysAllow ? null : input.autoSaved,
        // Gemini's own "allow for all future sessions" writes the user's file, which every folder reads.
        workspaceScope: "global",
      };
    },
  };
}

function req_mode_name(mode: string): string {
  return mode === "autoEdit" ? "auto_edit" : mode;
}

export const engine: AgentEngine = {
  parseMode(mode) {
    const m = modeFromFlag(mode);
    return m
      ? { ok: true, value: req_mode_name(m) }
      : { ok: false, error: `unknown Gemini approval mode "${mode}" (use ${GEMINI_MODES.join(", ")})` };
  },
  parseCall(raw) {
    const parsed = GeminiCallSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, error: `${issue.path.join(".") || "call"}: ${issue.message}` };
    }
    const { tool, input, server } = parsed.data;
    return { ok: true, value: { tool, input: server ? { ...input } : input, ...(server ? { server } : {}) } };
  },
  async load({ paths, cwd, sessionRows, sessionId }) {
    const [shell, read] = await Promise.all([loadGeminiShell(), readGemini(paths, cwd ?? undefined)]);
    const session: GeminiRule[] = [];
    for (const row of sessionRows ?? []) {
      if (row.agent !== info.id || row.agentSessionId !== sessionId) continue;
      const store = `session:${row.agentSessionId}`;
      for (const r of rulesOfLine(row.rule, store))
        session.push({
          ...r,
          source: `Session (${row.agentSessionId})`,
          origin: { kind: "session", file: store, setting: row.rule, tier: "user" },
        });
    }
    const loc = geminiLocations(read.paths);
    return geminiSnapshot({
      paths,
      stores: read.stores,
      versions: read.versions,
      shell,
      host: realHost(read.paths.cwd, { homeDir: read.paths.home }),
      session,
      autoSaved: displayPath(loc.autoSaved, read.paths.home),
    });
  },
  async isToolWide(rule) {
    const parsed = parseRuleLine(rule);
    if (!parsed.ok) return false;
    const t = parsed.table;
    const narrowed = ["commandPrefix", "commandRegex", "argsPattern", "subagent", "toolAnnotations"].some(
      (k) => k in t,
    );
    return !narrowed && (t.toolName === "*" || t.toolName === "run_shell_command" || t.mcpName === "*");
  },
  describeRule(rule) {
    const parsed = parseRuleLine(rule);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const t = parsed.table;
    const tool = Array.isArray(t.toolName) ? t.toolName.join(",") : String(t.toolName ?? "*");
    const spec = t.commandPrefix ?? t.commandRegex ?? t.argsPattern ?? t.mcpName;
    return {
      ok: true,
      value: { tool, specifier: Array.isArray(spec) ? spec.join(" | ") : typeof spec === "string" ? spec : null },
    };
  },
};

/** `~/.gemini/policies/auto-saved.toml` for people; other paths as they are. */
export function displayPath(file: string, home: string): string {
  const rel = path.relative(home, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? `~/${rel}` : file;
}
