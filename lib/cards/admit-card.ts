import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { cards, workspaces } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { requireCan } from "@/lib/auth/access";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { admissionLimitsFromEnv, assertPendingRoom, takeAdmission, type AdmissionLimits } from "./admission-limits";
import { ABSENCE_REASON, holdOf, startDeadlineIfFirst } from "./absence";
import { publishCardChange } from "./bus";
import { auditedCall, recordCardEvent } from "./events";
import { cardHash } from "./hash";
import { CARD_AGENTS, evaluateCall, type CardEnv } from "./policy";
import { requestWarnings } from "./request-warnings";
import { validateToolCall } from "./tool-input";
import { agentInfo } from "@/lib/agents";

export const AdmitCardInput = z.object({
  agent: z.enum(CARD_AGENTS),
  sessionId: z.string().trim().min(1).max(300),
  rootSessionId: z.string().trim().min(1).max(300).optional(),
  originPath: z
    .string()
    .trim()
    .regex(/^\/[\w./-]*$/, "an origin path looks like /root/worker")
    .max(500)
    .optional(),
  cwd: z.string().max(4096).optional(),
  mode: z.string().max(50).optional(),
  tool: z.string().trim().min(1).max(300),
  input: z.record(z.string(), z.unknown()),
  reason: z.string().max(20_000).optional(),
  /**
   * True when the agent itself decided to ask (Claude Code's and Codex's PermissionRequest): rules the agent already
   * weighed never settle the card as allow; only the cockpit's own answers and rules a person saves here do.
   */
  agentAsked: z.boolean().optional(),
  /**
   * Rules the agent suggested remembering, one list per suggestion (Claude Code's `permission_suggestions`). The
   * chooser keeps only those inside what it builds from the request and that the lint does not call an error.
   */
  suggestions: z
    .array(z.array(z.string().max(1000)).max(20))
    .max(10)
    .optional(),
});
export type AdmitCardInput = z.infer<typeof AdmitCardInput>;

export type ImmediateDecision = { decision: "allow" | "deny"; step: string; reason: string; rule: string | null };
export type AdmitResult =
  | { status: "pending"; id: string; hash: string; card: typeof cards.$inferSelect }
  | { status: "coalesced" | "denied"; decision: ImmediateDecision };

/**
 * Admission: current policy first (rules, including session rules from earlier cards, settle the call
 * without a card); an absence hold denies a remaining ask at once; otherwise the card and its
 * `enqueued` event are written in one transaction.
 */
export async function admitCard({
  db,
  actor,
  workspaceId,
  input,
  env = {},
  limits,
}: {
  db: Db;
  actor: Actor;
  workspaceId: string;
  input: AdmitCardInput;
  env?: CardEnv;
  /** Per agent token; default from the environment (COCKPIT_MAX_PENDING_PER_TOKEN, COCKPIT_ADMISSIONS_*). */
  limits?: AdmissionLimits;
}): Promise<AdmitResult> {
  requireCan(actor, "card.admit", workspaceId);
  const tokenLimits = actor.kind === "agent" ? (limits ?? admissionLimitsFromEnv()) : null;
  // Before any store read: a flooding token must not make the server evaluate policy for it.
  if (actor.kind === "agent" && tokenLimits) takeAdmission(actor.tokenId, tokenLimits);
  // What the engine judges is what the card shows: a known tool without its required field is refused.
  validateToolCall(input.tool, input.input);
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw new NotFoundError(`no workspace with id ${workspaceId}`);
  const rootSessionId = input.rootSessionId ?? input.sessionId;
  const originPath = input.originPath ?? "/root";
  const who = actorLabel(actor);
  const evaluation = await evaluateCall(
    db,
    workspaceId,
    {
      agent: input.agent,
      workspacePath: workspace.path,
      rootSessionId,
      mode: input.mode,
      cwd: input.cwd,
      call: { tool: input.tool, input: input.input },
      agentAsked: input.agentAsked,
      suggestions: input.suggestions,
    },
    env,
  );
  const d = evaluation.decision;
  const summary = { agent: input.agent, sessionId: input.sessionId, rootSessionId, originPath, tool: input.tool };
  const call = auditedCall({ tool: input.tool, input: input.input });

  if (d.decision !== "ask") {
    const decision: ImmediateDecision = { decision: d.decision, step: d.step, reason: d.reason, rule: d.rule };
    await db.transaction((tx) =>
      recordAudit(tx, {
        type: "card.decided_by_rules",
        actor: auditActor(actor),
        workspaceId,
        outcome: decision.decision,
        decisionSource: "config",
        rule: decision.rule,
        store: d.store,
        agent: input.agent,
        agentSessionId: input.sessionId,
        cwd: input.cwd,
        tool: call.tool,
        input: call.input,
        // The full decision trace and the mode, so the Audit page can explain it and impact previews can replay it.
        detail: {
          ...summary,
          ...call.omitted,
          at: "admission",
          ...decision,
          mode: evaluation.modeEffective,
          cause: d.cause,
          warnings: d.warnings,
          trace: d.trace,
        },
      }),
    );
    return { status: "coalesced", decision };
  }

  const now = env.now?.() ?? new Date();
  const hold = await holdOf(db, { workspaceId, rootSessionId });
  if (hold?.heldAt) {
    const decision: ImmediateDecision = { decision: "deny", step: "absence-held", reason: ABSENCE_REASON, rule: null };
    await db.transaction((tx) =>
      recordAudit(tx, {
        type: "card.expired",
        actor: auditActor(actor),
        workspaceId,
        outcome: "deny",
        agent: input.agent,
        agentSessionId: input.sessionId,
        cwd: input.cwd,
        tool: call.tool,
        input: call.input,
        detail: { ...summary, ...call.omitted, source: "absence-held", heldSince: hold.heldAt!.toISOString() },
      }),
    );
    return { status: "denied", decision };
  }

  if (actor.kind === "agent" && tokenLimits) await assertPendingRoom(db, actor.tokenId, tokenLimits);

  const warnings = [
    ...d.warnings,
    ...requestWarnings({
      tool: input.tool,
      input: input.input,
      texts: [input.sessionId, rootSessionId, originPath, input.cwd, input.reason, input.mode],
    }).filter((w) => !d.warnings.includes(w)),
    ...(agentInfo(input.agent)?.cardWarnings ?? []),
  ];
  const content = {
    tool: input.tool,
    input: input.input,
    agent: input.agent,
    sessionId: input.sessionId,
    rootSessionId,
    originPath,
    workspaceId,
    reason: input.reason ?? null,
    modeBase: evaluation.modeBase,
    modeEffective: evaluation.modeEffective,
    cause: d.cause,
    warnings,
    remember: evaluation.remember,
    ...(input.cwd ? { cwd: input.cwd } : {}),
  };
  const hash = cardHash(content);
  const id = crypto.randomUUID();
  const card = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(cards)
      .values({
        id,
        workspaceId,
        agent: input.agent,
        agentTokenId: actor.kind === "agent" ? actor.tokenId : null,
        agentSessionId: input.sessionId,
        rootSessionId,
        originPath,
        cwd: input.cwd ?? null,
        tool: input.tool,
        input: input.input,
        modelReason: input.reason ?? null,
        modeBase: evaluation.modeBase,
        modeEffective: evaluation.modeEffective,
        cause: d.cause,
        warnings,
        safetyCheck: d.safetyCheck,
        remember: evaluation.remember,
        agentAsked: input.agentAsked ?? false,
        decision: { step: d.step, reason: d.reason, rule: d.rule },
        hash,
        createdAt: now,
      })
      .returning();
    await recordCardEvent(tx, {
      cardId: id,
      workspaceId,
      type: "enqueued",
      call: { tool: input.tool, input: input.input },
      actor: who,
      client: "agent",
      detail: summary,
    });
    await startDeadlineIfFirst(tx, { workspaceId, rootSessionId }, now);
    return row!;
  });
  publishCardChange({ type: "enqueued", cardId: id, workspaceId, status: "pending" });
  return { status: "pending", id, hash, card };
}
