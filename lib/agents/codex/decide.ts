/**
 * One Codex shell call decided as Codex decides it (core/src/exec_policy.rs
 * create_exec_approval_requirement_for_command, render_decision_for_unmatched_command, prompt_is_rejected_by_policy;
 * core/src/tools/handlers/shell.rs for the escalation guard). Pure: the policy, the parsers and the modes are passed
 * in. The cockpit is stricter than Codex in two places, both reported: a rules file it cannot evaluate turns allow
 * into ask, and when Codex ignores all rules because one file is broken the cockpit keeps the rules it can read.
 */
import type { Parser } from "web-tree-sitter";
import { z } from "zod";
import { checkMultiple, type Evaluation, type LoadedPolicy, type MatchOptions, matchRules } from "./policy";
import { commandMightBeDangerous, isKnownSafeCommand } from "./safety";
import { commandsForExecPolicy, type ExecPolicyCommands } from "./shell-split";
import { shlexJoin } from "./shlex";
import { proposedAmendment } from "./remember";
import type { CodexDecision, HeuristicsRuleMatch, PrefixRuleMatch, RuleMatch } from "./types";

export const SandboxPermissions = z.enum(["use_default", "require_escalated", "with_additional_permissions"]);

/** The call the cockpit decides: Codex's shell tool arguments (protocol ShellToolCallParams, argv form). */
export const CodexCall = z.object({
  tool: z.literal("shell"),
  input: z.object({
    command: z.array(z.string()).min(1, "command must name a program"),
    sandbox_permissions: SandboxPermissions.optional(),
    /** The model's suggested "don't ask again" prefix (ShellToolCallParams.prefix_rule). */
    prefix_rule: z.array(z.string()).optional(),
    justification: z.string().optional(),
    workdir: z.string().optional(),
  }),
});
export type CodexCall = z.infer<typeof CodexCall>;

export const GranularApproval = z.object({
  sandbox_approval: z.boolean(),
  rules: z.boolean(),
  skill_approval: z.boolean().optional(),
  request_permissions: z.boolean().optional(),
  mcp_elicitations: z.boolean().optional(),
});
export const ApprovalPolicy = z.union([
  z.enum(["untrusted", "on-failure", "on-request", "never"]),
  z.object({ granular: GranularApproval }),
]);
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;
export const SandboxMode = z.enum(["read-only", "workspace-write", "danger-full-access", "external-sandbox"]);
export type SandboxMode = z.infer<typeof SandboxMode>;

export interface CodexDecideContext {
  approvalPolicy: ApprovalPolicy;
  sandboxMode: SandboxMode;
  policy: LoadedPolicy;
  /** tree-sitter-bash, as Codex parses `bash -lc` scripts. */
  bash: Parser;
  /** Where relative program paths resolve and `~` expands (Codex's working directory and home). */
  cwd: string;
  home?: string;
  /** Linux adds numfmt/tac to the known-safe list (default true). */
  linux?: boolean;
}

export type CockpitDecision = "allow" | "ask" | "deny";

export interface CodexDecisionResult {
  /** What the cockpit answers: never more permissive than Codex. */
  decision: CockpitDecision;
  /** What Codex itself would do with its loaded policy. */
  codex: CockpitDecision;
  /** Codex's message (rejection or approval reason), when it gives one. */
  reason?: string;
  /** The rule that decided (the most specific match with the deciding decision), if a rule decided. */
  rule?: {
    file: string;
    line: number;
    layer: string;
    pattern: PrefixRuleMatch["rule"]["pattern"];
    /** The rule's own decision (a prompt rule still decided when `never` turned its prompt into a rejection). */
    decision: CodexDecision;
    matchedPrefix: string[];
    justification?: string;
  };
  /** The heuristic that decided, when no rule did. */
  heuristic?: HeuristicsRuleMatch["reason"];
  /** The segments Codex matched, each with its matches. */
  segments: { command: string[]; matches: RuleMatch[] }[];
  split: ExecPolicyCommands["how"];
  /** Allowed and every segment matched an explicit allow rule: Codex runs it outside the sandbox. */
  bypassSandbox?: boolean;
  /** What "don't ask again" would write (exec_policy.rs proposed_execpolicy_amendment), when Codex offers it. */
  amendment?: string[];
  explain: string[];
}

const TO_COCKPIT: Record<CodexDecision, CockpitDecision> = { allow: "allow", prompt: "ask", forbidden: "deny" };
const RANK: Record<CockpitDecision, number> = { allow: 0, ask: 1, deny: 2 };

type FsKind = "restricted" | "unrestricted" | "external";
function fsKind(mode: SandboxMode): FsKind {
  if (mode === "danger-full-access") return "unrestricted";
  if (mode === "external-sandbox") return "external";
  return "restricted";
}

function requestsOverride(p: CodexCall["input"]["sandbox_permissions"]): boolean {
  return p === "require_escalated" || p === "with_additional_permissions";
}

function policyName(p: ApprovalPolicy): string {
  return typeof p === "string" ? p : "granular";
}

/** exec_policy.rs render_decision_for_unmatched_command. */
export function renderUnmatched(
  cmd: readonly string[],
  ctx: Pick<CodexDecideContext, "approvalPolicy" | "sandboxMode" | "bash" | "linux">,
  sandboxPermissions: CodexCall["input"]["sandbox_permissions"],
  complex: boolean,
): HeuristicsRuleMatch {
  const h = (decision: CodexDecision, reason: HeuristicsRuleMatch["reason"]): HeuristicsRuleMatch => ({
    kind: "heuristics",
    command: cmd.slice(),
    decision,
    reason,
  });
  if (!complex && isKnownSafeCommand(cmd, ctx.bash, { linux: ctx.linux })) return h("allow", "known-safe");
  const ap = ctx.approvalPolicy;
  if (commandMightBeDangerous(cmd, ctx.bash)) {
    if (ap === "never")
      return fsKind(ctx.sandboxMode) === "restricted"
        ? h("forbidden", "dangerous-never-forbidden")
        : h("allow", "dangerous-full-access");
    return h("prompt", "dangerous-prompt");
  }
  if (ap === "never" || ap === "on-failure") return h("allow", "never-or-on-failure");
  if (ap === "untrusted") return h("prompt", "untrusted");
  if (fsKind(ctx.sandboxMode) !== "restricted") return h("allow", "on-request-unrestricted");
  return requestsOverride(sandboxPermissions)
    ? h("prompt", "on-request-escalation")
    : h("allow", "on-request-sandboxed");
}

/** exec_policy.rs prompt_is_rejected_by_policy. */
export function promptRejection(ap: ApprovalPolicy, promptIsRule: boolean): string | undefined {
  if (ap === "never") return "approval required by policy, but AskForApproval is set to Never";
  if (typeof ap === "string") return undefined;
  if (promptIsRule)
    return ap.granular.rules
      ? undefined
      : "approval required by policy rule, but AskForApproval::Granular.rules is false";
  return ap.granular.sandbox_approval
    ? undefined
    : "approval required by policy, but AskForApproval::Granular.sandbox_approval is false";
}

function mostSpecific(matches: readonly RuleMatch[], decision: CodexDecision): PrefixRuleMatch | undefined {
  let best: PrefixRuleMatch | undefined;
  for (const m of matches)
    if (m.kind === "prefix" && m.decision === decision && (!best || m.matchedPrefix.length > best.matchedPrefix.length))
      best = m;
  return best;
}

/** Codex's ExecApprovalRequirement for one call (exec_policy.rs create_exec_approval_requirement_for_command). */
export type ExecApprovalRequirement =
  | { kind: "skip"; bypassSandbox: boolean; amendment?: string[]; evaluation: Evaluation }
  | { kind: "needs-approval"; reason?: string; amendment?: string[]; evaluation: Evaluation }
  | { kind: "forbidden"; reason: string; evaluation: Evaluation };

type RequirementContext = Pick<
  CodexDecideContext,
  "approvalPolicy" | "sandboxMode" | "bash" | "cwd" | "home" | "linux"
>;

/**
 * The approval requirement Codex computes for a call under a given policy: split, match every segment (heuristics
 * for unmatched ones), strictest wins, prompts turned into rejections where the approval policy says so.
 * The shell handler's escalation guard is not part of it (see `decideCodex`).
 */
export function execApprovalRequirement(
  call: CodexCall,
  ctx: RequirementContext,
  policy: LoadedPolicy["effective"],
  split: ExecPolicyCommands = commandsForExecPolicy(call.input.command, ctx.bash),
): ExecApprovalRequirement {
  const argv = call.input.command;
  const opts: MatchOptions = { resolveHostExecutables: true, cwd: ctx.cwd, ...(ctx.home ? { home: ctx.home } : {}) };
  const fallback = (cmd: readonly string[]) => renderUnmatched(cmd, ctx, call.input.sandbox_permissions, split.complex);
  const evaluation = checkMultiple(policy, split.commands, fallback, opts);
  const command = shlexJoin(argv);
  if (evaluation.decision === "forbidden") {
    const m = mostSpecific(evaluation.matchedRules, "forbidden");
    const reason = m
      ? m.justification !== undefined
        ? `\`${command}\` rejected: ${m.justification}`
        : `\`${command}\` rejected: policy forbids commands starting with \`${shlexJoin(m.matchedPrefix)}\``
      : `\`${command}\` rejected: blocked by policy`;
    return { kind: "forbidden", reason, evaluation };
  }
  if (evaluation.decision === "prompt") {
    const promptIsRule = evaluation.matchedRules.some((m) => m.kind === "prefix" && m.decision === "prompt");
    const rejected = promptRejection(ctx.approvalPolicy, promptIsRule);
    if (rejected) return { kind: "forbidden", reason: rejected, evaluation };
    const m = mostSpecific(evaluation.matchedRules, "prompt");
    const reason = m
      ? m.justification !== undefined
        ? `\`${command}\` requires approval: ${m.justification}`
        : `\`${command}\` requires approval by policy`
      : undefined;
    const amendment = proposedAmendment(call, evaluation, split, policy, fallback, opts);
    return { kind: "needs-approval", ...(reason ? { reason } : {}), ...(amendment ? { amendment } : {}), evaluation };
  }
  const bypassSandbox = split.commands.every((c) => matchRules(policy, c, opts).some((m) => m.decision === "allow"));
  // try_derive_execpolicy_amendment_for_allow_rules: offered when the sandboxed run fails and Codex asks to retry outside.
  let amendment: string[] | undefined;
  if (!split.complex && !evaluation.matchedRules.some((m) => m.kind === "prefix")) {
    const h = evaluation.matchedRules.find((m) => m.kind === "heuristics" && m.decision === "allow");
    if (h && h.kind === "heuristics") amendment = h.command.slice();
  }
  return { kind: "skip", bypassSandbox, ...(amendment ? { amendment } : {}), evaluation };
}

interface Judged {
  decision: CockpitDecision;
  reason?: string;
  evaluation: Evaluation;
  bypassSandbox?: boolean;
  amendment?: string[];
}

function judge(
  call: CodexCall,
  ctx: CodexDecideContext,
  split: ExecPolicyCommands,
  policy: LoadedPolicy["effective"],
): Judged {
  const req = execApprovalRequirement(call, ctx, policy, split);
  if (req.kind === "forbidden") return { decision: "deny", reason: req.reason, evaluation: req.evaluation };
  if (req.kind === "needs-approval")
    return {
      decision: "ask",
      ...(req.reason ? { reason: req.reason } : {}),
      evaluation: req.evaluation,
      ...(req.amendment ? { amendment: req.amendment } : {}),
    };
  return { decision: "allow", evaluation: req.evaluation, bypassSandbox: req.bypassSandbox };
}

/** Decide one Codex shell call. Throws a zod error for a malformed call. */
export function decideCodex(rawCall: unknown, ctx: CodexDecideContext): CodexDecisionResult {
  const call = CodexCall.parse(rawCall);
  const argv = call.input.command;
  const explain: string[] = [];
  const ap = policyName(ctx.approvalPolicy);
  explain.push(`approval policy ${ap}, sandbox ${ctx.sandboxMode}`);

  if (requestsOverride(call.input.sandbox_permissions) && ctx.approvalPolicy !== "on-request") {
    const reason = `approval policy is ${ap}; reject command — you should not ask for escalated permissions if the approval policy is ${ap}`;
    explain.push(
      `sandbox_permissions=${call.input.sandbox_permissions} is only accepted under on-request: Codex rejects the call`,
    );
    return { decision: "deny", codex: "deny", reason, segments: [], split: "whole", explain };
  }

  const split = commandsForExecPolicy(argv, ctx.bash);
  explain.push(
    split.how === "plain-segments"
      ? `shell script split into ${split.commands.length} plain command(s): ${split.commands.map((c) => shlexJoin(c)).join(" | ")}`
      : split.how === "heredoc"
        ? `single heredoc command reduced to \`${shlexJoin(split.commands[0]!)}\` (never known-safe)`
        : `judged whole: \`${shlexJoin(argv)}\``,
  );

  const failure = ctx.policy.failure;
  if (failure) explain.push(`Codex ignores ALL rules: ${failure.file}:${failure.line}: ${failure.message}`);
  const codexView = judge(call, ctx, split, ctx.policy.effective);
  let final = codexView;
  let decision = codexView.decision;
  if (failure) {
    // Codex runs with no rules; the cockpit also weighs the rules it can read and keeps the stricter answer.
    const readable = judge(call, ctx, split, ctx.policy.readable);
    if (RANK[readable.decision] > RANK[decision]) {
      explain.push(`the cockpit keeps the rules Codex dropped: ${readable.decision} instead of Codex's ${decision}`);
      final = readable;
      decision = readable.decision;
    }
  }
  if (decision === "allow" && ctx.policy.opaque.length) {
    const o = ctx.policy.opaque[0]!;
    explain.push(`${o.file}:${o.line} ${o.reason}: the cockpit cannot tell what it allows, so it asks`);
    decision = "ask";
  }

  for (const m of final.evaluation.matchedRules) {
    if (m.kind === "prefix")
      explain.push(
        `rule ${m.rule.source.file}:${m.rule.source.line} prefix ${JSON.stringify(m.matchedPrefix)} → ${m.decision}` +
          (m.resolvedProgram ? ` (via host executable ${m.resolvedProgram})` : ""),
      );
    else explain.push(`no rule matched \`${shlexJoin(m.command)}\`: heuristic ${m.reason} → ${m.decision}`);
  }
  explain.push(
    `strictest: ${final.evaluation.decision} → ${final.decision}${final.reason ? ` (${final.reason})` : ""}`,
  );

  const codexDecision = final.evaluation.decision;
  const deciding = mostSpecific(final.evaluation.matchedRules, codexDecision);
  const heuristic = deciding
    ? undefined
    : final.evaluation.matchedRules.find(
        (m): m is HeuristicsRuleMatch => m.kind === "heuristics" && m.decision === codexDecision,
      );
  const segments = split.commands.map((command, i) => ({ command, matches: final.evaluation.perCommand[i] ?? [] }));
  return {
    decision,
    codex: codexView.decision,
    ...(final.reason ? { reason: final.reason } : {}),
    ...(deciding
      ? {
          rule: {
            file: deciding.rule.source.file,
            line: deciding.rule.source.line,
            layer: deciding.rule.source.layer,
            pattern: deciding.rule.pattern,
            decision: deciding.rule.decision,
            matchedPrefix: deciding.matchedPrefix,
            ...(deciding.justification !== undefined ? { justification: deciding.justification } : {}),
          },
        }
      : {}),
    ...(heuristic ? { heuristic: heuristic.reason } : {}),
    segments,
    split: split.how,
    ...(final.decision === "allow" && decision === "allow" ? { bypassSandbox: final.bypassSandbox } : {}),
    ...(decision === "ask" && final.amendment ? { amendment: final.amendment } : {}),
    explain,
  };
}
