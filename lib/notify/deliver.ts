import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  auditCheckpoints,
  notifyAttempts,
  notifyDeliveries,
  pushSubscriptions,
  webhookEndpoints,
  workspaces,
} from "@/db/schema";
import { checkpointMessage } from "@/lib/audit/checkpoint";
import { getCardUnchecked, type CardView } from "@/lib/cards";
import { mintActionTokens } from "./action-tokens";
import { classifyStatus, nextDelayMs, type Verdict } from "./classify";
import { renderBody } from "./formats";
import { renderCheckpointBody } from "./formats/checkpoint";
import { sendHttp, SendError, type HttpResult } from "./http-send";
import { cardUrl, nowOf, REQUEST_TIMEOUT_MS, RETRY_SCHEDULE_SECONDS, type NotifyEnv } from "./notify-env";
import { pushRequest } from "./push";
import { redactResponse } from "./redact";
import { targetPolicy } from "./settings";
import { webhookHeaders } from "./signing";

type Delivery = typeof notifyDeliveries.$inferSelect;
type Endpoint = typeof webhookEndpoints.$inferSelect;

export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  verdict: Verdict;
}

/** Sends one signed request to a webhook endpoint and reads the answer; never throws for network trouble. */
export async function sendToEndpoint(
  db: Db,
  endpoint: Endpoint,
  body: string,
  msgId: string,
  env: NotifyEnv,
): Promise<AttemptOutcome> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...webhookHeaders(endpoint.secret, msgId, body, nowOf(env).getTime()),
  };
  if (endpoint.format === "ntfy" && endpoint.ntfyToken) headers.authorization = `Bearer ${endpoint.ntfyToken}`;
  return send(db, { url: endpoint.url, headers, body }, env, [endpoint.secret, endpoint.ntfyToken]);
}

async function send(
  db: Db,
  request: { url: string; headers: Record<string, string>; body: string | Buffer },
  env: NotifyEnv,
  secrets: (string | null)[] = [],
): Promise<AttemptOutcome> {
  let result: HttpResult;
  try {
    result = await sendHttp({
      ...request,
      timeoutMs: env.timeoutMs ?? REQUEST_TIMEOUT_MS,
      policy: await targetPolicy(db, env),
    });
  } catch (error) {
    if (!(error instanceof SendError)) throw error;
    const verdict: Verdict = error.kind === "refused" ? { kind: "give-up", reason: error.message } : { kind: "retry" };
    return { statusCode: null, latencyMs: error.latencyMs, error: error.message, responseBody: null, verdict };
  }
  const verdict = classifyStatus(result.statusCode, result.headers, nowOf(env).getTime());
  const error =
    verdict.kind === "delivered" ? null : verdict.kind === "retry" ? `HTTP ${result.statusCode}` : verdict.reason;
  return {
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error,
    // Redacted before it is cut, so no credential survives half-cut at the edge.
    responseBody: redactResponse(result.body, secrets).slice(0, 1000),
    verdict,
  };
}

async function finish(db: Db, delivery: Delivery, outcome: AttemptOutcome, env: NotifyEnv): Promise<void> {
  const now = nowOf(env);
  const attempts = delivery.attempts + 1;
  let status: Delivery["status"] = "pending";
  let nextAttemptAt: Date | null = null;
  let lastError = outcome.error;
  if (outcome.verdict.kind === "delivered") status = "delivered";
  else if (outcome.verdict.kind === "retry") {
    const delay = nextDelayMs(
      attempts,
      env.schedule ?? RETRY_SCHEDULE_SECONDS,
      env.random ?? Math.random,
      outcome.verdict.minDelayMs,
    );
    if (delay === null) {
      status = "failed";
      lastError = `${outcome.error}; gave up after ${attempts} attempts`;
    } else nextAttemptAt = new Date(now.getTime() + delay);
  } else status = "failed";
  await db.transaction(async (tx) => {
    await tx.insert(notifyAttempts).values({
      deliveryId: delivery.id,
      at: now,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseBody: outcome.responseBody,
    });
    await tx
      .update(notifyDeliveries)
      .set({
        attempts,
        status,
        nextAttemptAt,
        leaseUntil: null,
        lastStatusCode: outcome.statusCode,
        lastError,
        completedAt: status === "pending" ? null : now,
      })
      .where(eq(notifyDeliveries.id, delivery.id));
    if (outcome.verdict.kind === "gone" && delivery.endpointId) {
      await tx
        .update(webhookEndpoints)
        .set({
          enabled: false,
          disabledReason: `disabled: ${outcome.verdict.reason} at ${now.toISOString()}`,
          updatedAt: now,
        })
        .where(eq(webhookEndpoints.id, delivery.endpointId));
    }
  });
}

async function skip(db: Db, delivery: Delivery, reason: string, env: NotifyEnv) {
  await db
    .update(notifyDeliveries)
    .set({ status: "skipped", lastError: reason, leaseUntil: null, nextAttemptAt: null, completedAt: nowOf(env) })
    .where(eq(notifyDeliveries.id, delivery.id));
}

/** One attempt of a claimed delivery: render from the card as it is now, sign, send, record, schedule. */
export async function attemptDelivery(db: Db, delivery: Delivery, env: NotifyEnv = {}): Promise<void> {
  try {
    await attempt(db, delivery, env);
  } catch (error) {
    // A bug or bad data (e.g. a malformed push key) must not leave the lease to retry forever: record and stop.
    const outcome: AttemptOutcome = {
      statusCode: null,
      latencyMs: 0,
      error: `not sent: ${(error as Error).message}`,
      responseBody: null,
      verdict: { kind: "give-up", reason: (error as Error).message },
    };
    await finish(db, delivery, outcome, env);
  }
}

async function attempt(db: Db, delivery: Delivery, env: NotifyEnv): Promise<void> {
  if (delivery.eventType === "audit.checkpoint") return attemptCheckpoint(db, delivery, env);
  let card: CardView;
  try {
    card = await getCardUnchecked(db, delivery.cardId!);
  } catch {
    return skip(db, delivery, "the card no longer exists", env);
  }
  if (delivery.subscriptionId) return attemptPush(db, delivery, card, env);
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId!));
  if (!endpoint) return skip(db, delivery, "the endpoint was deleted", env);
  if (!endpoint.enabled) return skip(db, delivery, endpoint.disabledReason ?? "the endpoint is disabled", env);
  if (
    delivery.eventType === "card.admitted" &&
    delivery.attempts === 0 &&
    endpoint.delaySeconds > 0 &&
    card.status !== "pending"
  ) {
    return skip(db, delivery, `answered within the ${endpoint.delaySeconds} s delay`, env);
  }
  const pending = delivery.eventType === "card.admitted" && card.status === "pending";
  // In a workspace whose approvals need a passkey, the notification only opens the card (no answer buttons).
  const [ws] = await db
    .select({ requirePasskey: workspaces.requirePasskey })
    .from(workspaces)
    .where(eq(workspaces.id, card.workspace.id));
  const actions =
    endpoint.format === "ntfy" && pending && !ws?.requirePasskey
      ? await mintActionTokens(db, { cardId: card.id, endpointId: endpoint.id, env })
      : undefined;
  const body = renderBody(
    endpoint.format,
    {
      type: delivery.eventType as never,
      msgId: delivery.msgId,
      at: delivery.eventAt,
      card,
      url: cardUrl(env, card.id),
      actions,
    },
    { ntfyTopic: endpoint.ntfyTopic, ntfyPriority: endpoint.ntfyPriority },
  );
  const outcome = await sendToEndpoint(db, endpoint, body, delivery.msgId, env);
  await finish(db, delivery, outcome, env);
}

/** A signed audit checkpoint for a webhook that keeps the outside copy. */
async function attemptCheckpoint(db: Db, delivery: Delivery, env: NotifyEnv): Promise<void> {
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId!));
  if (!endpoint) return skip(db, delivery, "the endpoint was deleted", env);
  if (!endpoint.enabled) return skip(db, delivery, endpoint.disabledReason ?? "the endpoint is disabled", env);
  const [checkpoint] = await db
    .select()
    .from(auditCheckpoints)
    .where(eq(auditCheckpoints.seq, delivery.checkpointSeq ?? -1));
  if (!checkpoint) return skip(db, delivery, "the checkpoint no longer exists", env);
  const body = renderCheckpointBody(endpoint.format, await checkpointMessage(checkpoint), {
    ntfyTopic: endpoint.ntfyTopic,
  });
  await finish(db, delivery, await sendToEndpoint(db, endpoint, body, delivery.msgId, env), env);
}

async function attemptPush(db: Db, delivery: Delivery, card: CardView, env: NotifyEnv) {
  const [sub] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, delivery.subscriptionId!));
  if (!sub) return skip(db, delivery, "the subscription was removed", env);
  if (card.status !== "pending") return skip(db, delivery, "the card was answered before the push went out", env);
  const request = await pushRequest(db, sub, card, env);
  const outcome = await send(db, request, env);
  if (outcome.statusCode === 404 || outcome.statusCode === 410) {
    // The browser dropped the subscription: forget it (its deliveries go with it).
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
    return;
  }
  await finish(db, delivery, outcome, env);
}
