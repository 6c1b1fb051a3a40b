/**
 * Codex's decisions behind the agent interface (`AgentSnapshot`): the rules Codex loaded for one folder, its modes
 * and the session entries, read once; each call is decided without I/O by `decideCodex` (Codex's own order) and
 * mapped onto the cockpit's decision (allow / ask / deny, the deciding rule with its file and line, the step, the
 * reason). Pure: everything is handed in.
 */
import path from "node:path";
import type { Parser } from "web-tree-sitter";
import type { Cause, Decision, StepName, TraceEntry } from "@/lib/policy";
import type { AgentDecision, AgentSnapshot, DecideRequest, RememberOffer } from "../types";
import { readCodexCall } from "./call";
import type { ResolvedModes } from "./config";
import {
  ApprovalPolicy,
  SandboxMode,
  decideCodex,
  execApprovalRequirement,
  type CodexCall,
  type CodexDecideContext,
  type CodexDecisionResult,
} from "./decide";
import { absolutize } from "./paths";
import { addRule, emptyPolicy, matchRules, type CodexPolicy, type LoadedPolicy, type PolicyFailure } from "./policy";
import { exactCommandText, failureBanner, prefixRuleText, scopeOfLayer, TO_ACTION } from "./rule-text";
import { commandsForExecPolicy } from "./shell-split";
import { shlexJoin } from "./shlex";
import type { HeuristicReason, PrefixRule } from "./types";

/** Session entries of one agent session, read into rules (`sessionRules`). */
export interface CodexSessionRules {
  sessionId: string;
  /** `prefix_rule(...)` rows: they join Codex's policy (the strictest decision wins) as the session layer. */
  prefix: { rule: PrefixRule; text: string }[];
  /** Exact commands a person allowed for this session (Codex's "don't ask again for this command"). */
  exact: { argv: string[]; text: string }[];
}

export interface CodexSnapshotInput {
  agent: string;
  paths: AgentSnapshot["paths"];
  stores: AgentSnapshot["stores"];
  policy: LoadedPolicy;
  modes: ResolvedModes;
  /** A store that stops Codex from starting (a broken config.toml or requirements.toml). */
  fatal?: PolicyFailure;
  /** The folder the project layers were read for. */
  cwd: string;
  home: string;
  /** `$CODEX_HOME` (`~/.codex`): "always allow" writes its `rules/default.rules`. */
  codexHome: string;
  session: CodexSessionRules;
  bash: Parser;
  /** The cockpit's own data folder: a call naming it waits for a person, whatever the rules say. */
  protectedPaths: readonly string[];
  linux?: boolean;
}

const STRICTER = { allow: 0, ask: 1, deny: 2 } as const;

function withSession(policy: CodexPolicy, rules: readonly PrefixRule[]): CodexPolicy {
  if (!rules.length) return policy;
  const copy: CodexPolicy = {
    rulesByProgram: new Map([...policy.rulesByProgram].map(([k, v]) => [k, v.slice()])),
    hostExecutables: policy.hostExecutables,
    networkRules: policy.networkRules,
  };
  for (const r of rules) addRule(copy, r);
  return copy;
}

const HEURISTIC_STEP: Record<HeuristicReason, StepName> = {
  "known-safe": "read-only",
  "dangerous-never-forbidden": "fallback",
  "dangerous-full-access": "yolo",
  "dangerous-prompt": "fallback",
  "never-or-on-failure": "yolo",
  untrusted: "fallback",
  "on-request-unrestricted": "yolo",
  "on-request-sandboxed": "yolo",
  "on-request-escalation": "fallback",
};

function heuristicReason(
  h: HeuristicReason,
  command: string,
  policy: string,
  sandbox: string,
  sandboxPermissions?: string,
): string {
  switch (h) {
    case "known-safe":
      return `no rule matched; \`${command}\` is on Codex's known-safe list`;
    case "dangerous-prompt":
      return `no rule matched; \`${command}\` might be dangerous, so Codex asks`;
    case "dangerous-never-forbidden":
      return `no rule matched; \`${command}\` might be dangerous and approval policy never cannot ask, so Codex rejects it`;
    case "dangerous-full-access":
      return `no rule matched; approval policy never with sandbox ${sandbox} runs \`${command}\` without asking`;
    case "never-or-on-failure":
      return `no rule matched; approval policy ${policy} runs \`${command}\` in the ${sandbox} sandbox without asking`;
    case "untrusted":
      return `no rule matched and \`${command}\` is not known-safe; approval policy untrusted asks`;
    case "on-request-unrestricted":
      return `no rule matched; approval policy on-request with sandbox ${sandbox} runs \`${command}\` without asking`;
    case "on-request-sandboxed":
      return `no rule matched; approval policy on-request runs \`${command}\` in the ${sandbox} sandbox without asking`;
    case "on-request-escalation":
      return `\`${command}\` asks to run outside the sandbox (sandbox_permissions=${sandboxPermissions ?? "require_escalated"}); approval policy on-request asks`;
  }
}

/** Does any argv word name the cockpit's own data folder (as a path, relative to cwd or under `~`)? */
function namesProtected(
  argv: readonly string[],
  cwd: string,
  home: string,
  protectedPaths: readonly string[],
): boolean {
  if (!protectedPaths.length) return false;
  const inside = (p: string) =>
    protectedPaths.some((root) => p === root || p.startsWith(root.replace(/\/+$/, "") + "/"));
  for (const word of argv) {
    for (const part of word.split(/[\s=:;|&<>()'"`]+/)) {
      if (!part || part.startsWith("-")) continue;
      if (!part.includes("/") && !part.startsWith(".") && !part.startsWith("~")) continue;
      if (inside(absolutize(part, cwd, home))) return true;
    }
  }
  return false;
}

interface Decided {
  out: AgentDecision;
  call?: CodexCall;
  ctx?: CodexDecideContext;
  result?: CodexDecisionResult;
  /** A session entry allows every part of the call (it settles Codex's ask). */
  session?: { text: string };
}

export function codexSnapshot(input: CodexSnapshotInput): AgentSnapshot {
  const sessionPrefix = input.session.prefix.map((p) => p.rule);
  const policy: LoadedPolicy = {
    ...input.policy,
    effective: withSession(input.policy.effective, sessionPrefix),
    readable: withSession(input.policy.readable, sessionPrefix),
  };
  const sessionAllows = emptyPolicy();
  for (const r of sessionPrefix) if (r.decision === "allow") addRule(sessionAllows, r);
  const sessionText = new Map(input.session.prefix.map((p) => [p.rule, p.text]));
  const storeRef = `session:${input.session.sessionId}`;
  const banner = input.policy.failure ? failureBanner(input.policy.failure) : undefined;

  const modesOf = (req: DecideRequest) => {
    const asked = req.mode ? ApprovalPolicy.safeParse(req.mode) : undefined;
    const approvalPolicy = asked?.success ? asked.data : input.modes.approvalPolicy;
    const sandboxOpt = req.options?.sandbox;
    const sb = typeof sandboxOpt === "string" ? SandboxMode.safeParse(sandboxOpt) : undefined;
    const sandboxMode = sb?.success ? sb.data : input.modes.sandboxMode;
    const name = typeof approvalPolicy === "string" ? approvalPolicy : "granular";
    return {
      approvalPolicy,
      sandboxMode,
      name,
      from: {
        approvalPolicy: asked?.success ? "--mode" : input.modes.from.approvalPolicy,
        sandboxMode: sb?.success ? "--sandbox" : input.modes.from.sandboxMode,
      },
    };
  };

  const finish = (
    d: Omit<Decision, "trace" | "warnings" | "safetyCheck"> & { warnings?: string[]; safetyCheck?: boolean },
    lines: readonly string[],
    mode: string,
    explain: Record<string, unknown>,
  ): AgentDecision => {
    const warnings = [...(d.warnings ?? [])];
    if (banner) warnings.unshift(banner);
    const trace: TraceEntry[] = lines.map((why, i) => ({
      step: d.step,
      outcome: i === lines.length - 1 ? "decided" : "passed",
      why,
    }));
    if (!trace.length) trace.push({ step: d.step, outcome: "decided", why: d.reason });
    return {
      decision: { ...d, warnings, safetyCheck: d.safetyCheck ?? false, trace },
      modeBase: mode,
      modeEffective: mode,
      explain,
    };
  };

  /** A session entry covering the call: the exact command, or a session allow rule for every segment. */
  const sessionCover = (call: CodexCall): { text: string } | undefined => {
    const argv = call.input.command;
    const exact = input.session.exact.find(
      (e) => e.argv.length === argv.length && e.argv.every((t, i) => t === argv[i]),
    );
    if (exact) return { text: exact.text };
    if (!sessionPrefix.length) return undefined;
    const split = commandsForExecPolicy(argv, input.bash);
    let first: string | undefined;
    for (const cmd of split.commands) {
      const m = matchRules(sessionAllows, cmd, { resolveHostExecutables: true, cwd: input.cwd, home: input.home })[0];
      if (!m) return undefined;
      first ??= sessionText.get(m.rule);
    }
    return first ? { text: first } : undefined;
  };

  const decideFull = (req: DecideRequest): Decided => {
    const modes = modesOf(req);
    const explain: Record<string, unknown> = {
      approvalPolicy: modes.name,
      sandboxMode: modes.sandboxMode,
      modesFrom: modes.from,
    };
    const reading = readCodexCall(req.call);
    if (!reading.ok) {
      const out = finish(
        {
          decision: "ask",
          step: "fallback",
          rule: null,
          scope: null,
          store: null,
          reason: `${reading.error}; the cockpit does not model this approval, so a person decides`,
          cause: "mode",
        },
        [],
        modes.name,
        explain,
      );
      return { out };
    }
    const call = reading.call;
    const cwd = req.cwd ? path.resolve(input.paths.workspace, req.cwd) : input.cwd;
    const command = shlexJoin(call.input.command);
    if (input.fatal) {
      const f = input.fatal;
      const reason = `Codex would not start: ${f.file}:${f.line}: ${f.message}`;
      return {
        out: finish(
          { decision: "ask", step: "invalid-store", rule: null, scope: null, store: f.file, reason, cause: "mode" },
          [reason],
          modes.name,
          { ...explain, fatal: f },
        ),
        call,
      };
    }
    if (namesProtected(call.input.command, cwd, input.home, input.protectedPaths)) {
      const reason = `\`${command}\` names the cockpit's own data folder: a person decides, whatever the rules say`;
      return {
        out: finish(
          {
            decision: "ask",
            step: "protected-path",
            rule: null,
            scope: null,
            store: null,
            reason,
            cause: "protected-resource",
            warnings: ["protected path"],
            safetyCheck: true,
            protected: true,
          },
          [reason],
          modes.name,
          explain,
        ),
        call,
      };
    }
    const ctx: CodexDecideContext = {
      approvalPolicy: modes.approvalPolicy,
      sandboxMode: modes.sandboxMode,
      policy,
      bash: input.bash,
      cwd,
      home: input.home,
      ...(input.linux !== undefined ? { linux: input.linux } : {}),
    };
    const r = decideCodex(call, ctx);
    Object.assign(explain, {
      codex: r.codex,
      split: r.split,
      segments: r.segments.map((s) => ({
        command: s.command,
        matches: s.matches.map((m) =>
          m.kind === "prefix"
            ? {
                rule: prefixRuleText(m.rule.pattern, m.rule.decision),
                file: m.rule.source.file,
                line: m.rule.source.line,
                matchedPrefix: m.matchedPrefix,
                decision: m.decision,
                ...(m.resolvedProgram ? { resolvedProgram: m.resolvedProgram } : {}),
              }
            : { heuristic: m.reason, decision: m.decision },
        ),
      })),
      ...(r.rule ? { matchedPrefix: r.rule.matchedPrefix } : {}),
      ...(r.amendment ? { amendment: r.amendment } : {}),
      ...(input.policy.failure ? { ignoringAllRules: input.policy.failure } : {}),
    });
    const warnings: string[] = [];
    if (r.heuristic?.startsWith("dangerous")) warnings.push("dangerous command");
    if (r.split === "heredoc") warnings.push("heredoc: never known-safe");
    const session = r.decision === "deny" ? undefined : sessionCover(call);
    if (session && r.decision === "ask") {
      const reason = `allowed for this session in the cockpit (${session.text})`;
      return {
        out: finish(
          {
            decision: "allow",
            step: "allow-rule",
            rule: session.text,
            scope: "session",
            store: storeRef,
            reason,
            cause: "rule",
          },
          [...r.explain, reason],
          modes.name,
          explain,
        ),
        call,
        ctx,
        result: r,
        session,
      };
    }
    let d: Omit<Decision, "trace" | "warnings" | "safetyCheck"> & { warnings: string[] };
    if (r.rule) {
      const rd = TO_ACTION[r.rule.decision];
      const step: StepName = rd === "deny" ? "deny-rule" : rd === "ask" ? "ask-rule" : "allow-rule";
      const layer = r.rule.layer as PrefixRule["source"]["layer"];
      const where = layer === "session" ? "a session entry" : `${r.rule.file}:${r.rule.line}`;
      const head =
        r.reason ??
        (rd === "allow"
          ? `\`${command}\` allowed by policy`
          : `\`${command}\` ${rd === "ask" ? "requires approval" : "rejected"} by policy`);
      d = {
        decision: r.decision,
        step,
        rule: prefixRuleText(r.rule.pattern, r.rule.decision),
        scope: scopeOfLayer(layer),
        store: layer === "session" ? storeRef : r.rule.file,
        reason: `${head} (${where}, prefix \`${shlexJoin(r.rule.matchedPrefix)}\`)`,
        cause: rd === "ask" ? "explicit-ask-rule" : "rule",
        warnings,
      };
    } else {
      const seg = r.segments.flatMap((s) => s.matches).find((m) => m.kind === "heuristics" && m.reason === r.heuristic);
      const cmd = seg && seg.kind === "heuristics" ? shlexJoin(seg.command) : command;
      const base = r.heuristic
        ? heuristicReason(r.heuristic, cmd, modes.name, modes.sandboxMode, call.input.sandbox_permissions)
        : (r.reason ??
          `Codex ${r.codex === "deny" ? "rejects" : r.codex === "ask" ? "asks about" : "runs"} \`${command}\``);
      const cause: Cause = r.heuristic?.startsWith("dangerous") ? "safety" : "mode";
      d = {
        decision: r.decision,
        step: r.heuristic ? HEURISTIC_STEP[r.heuristic] : "fallback",
        rule: null,
        scope: null,
        store: null,
        reason: r.reason && r.heuristic ? `${base}: ${r.reason}` : base,
        cause,
        warnings,
      };
    }
    // The cockpit's stricter readings (docs/agents/codex.md "Where the cockpit is stricter than Codex").
    if (r.decision !== r.codex && STRICTER[r.decision] > STRICTER[r.codex]) {
      if (input.policy.opaque.length && !input.policy.failure) {
        const o = input.policy.opaque[0]!;
        d = {
          ...d,
          step: "invalid-store",
          store: o.file,
          reason: `${o.file}:${o.line} ${o.reason}: the cockpit cannot tell what it allows, so it asks (${d.reason})`,
        };
      } else d = { ...d, reason: `${d.reason}; Codex itself would ${r.codex} while it ignores every rules file` };
    }
    return { out: finish(d, r.explain, modes.name, explain), call, ctx, result: r };
  };

  return {
    agent: input.agent,
    paths: input.paths,
    stores: input.stores,
    decide: (req) => decideFull(req).out,
    decideAsked(req) {
      const full = decideFull(req);
      const d = full.out.decision;
      if (d.decision === "deny" || d.protected || full.session) return full.out;
      if (full.call) {
        const cover = sessionCover(full.call);
        if (cover) {
          const reason = `allowed for this session in the cockpit (${cover.text})`;
          return {
            ...full.out,
            decision: {
              ...d,
              decision: "allow",
              step: "allow-rule",
              rule: cover.text,
              scope: "session",
              store: storeRef,
              reason,
              cause: "rule",
            },
          };
        }
      }
      if (d.decision === "allow" && d.step !== "allow-rule") {
        const why = "Codex asked a person: only an explicit allow rule settles it without one";
        return {
          ...full.out,
          decision: {
            ...d,
            decision: "ask",
            reason: `${d.reason}; ${why}`,
            trace: [...d.trace, { step: d.step, outcome: "decided", why }],
          },
        };
      }
      return full.out;
    },
    remember(req, decision) {
      const none: RememberOffer = { session: [], workspace: [], workspaceStore: null };
      if (decision.decision !== "ask" || decision.protected || decision.safetyCheck) return none;
      const full = decideFull(req);
      if (!full.call || !full.ctx) return none;
      const session = [exactCommandText(full.call.input.command)];
      // What Codex's "don't ask again" would offer (exec_policy.rs proposed_execpolicy_amendment).
      let amendment = full.result?.amendment;
      if (!amendment) {
        const requirement = execApprovalRequirement(full.call, full.ctx, policy.effective);
        if (requirement.kind !== "forbidden") amendment = requirement.amendment;
      }
      // A `[shell, -lc, script]` the cockpit built from a hook's command string names a shell Codex may not use.
      const synthesized = amendment && amendment[0] === "bash" && amendment[1] === "-lc" && req.call.tool !== "shell";
      if (!amendment || synthesized) return { ...none, session };
      return {
        session,
        workspace: [prefixRuleText(amendment, "allow")],
        workspaceStore: defaultRulesLabel(input.codexHome, input.home),
        workspaceScope: "global",
      };
    },
  };
}

/** `~/.codex/rules/default.rules` as a person reads it. */
export function defaultRulesLabel(codexHome: string, home: string): string {
  const file = path.join(codexHome, "rules", "default.rules");
  const h = path.resolve(home);
  return file.startsWith(h + path.sep) ? `~/${path.relative(h, file)}` : file;
}
