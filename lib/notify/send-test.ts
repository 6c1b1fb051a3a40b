import "server-only";
import type { Db } from "@/db/client";
import { EXAMPLE_AGENT } from "@/lib/agents";
import { notifyAttempts, notifyDeliveries } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import type { Actor } from "@/lib/auth/actor";
import type { CardView } from "@/lib/cards/view";
import { sendToEndpoint } from "./deliver";
import { requireEndpoint } from "./endpoints";
import { renderBody } from "./formats";
import { nowOf, publicUrlOf, type NotifyEnv } from "./notify-env";
import { newMessageId } from "./signing";

/** A made-up card so a test send looks like the real thing without touching the queue. */
export function sampleCard(now: Date): CardView {
  return {
    id: "test-card",
    hash: "0".repeat(64),
    status: "pending",
    workspace: { id: "test", name: "example-project", path: "/home/you/example-project" },
    agent: EXAMPLE_AGENT.id,
    sessionId: "test-session",
    rootSessionId: "test-session",
    originPath: "/root",
    cwd: null,
    tool: "Bash",
    input: { command: "git push origin main" },
    reason: "This is a test notification from Permissions Cockpit.",
    modeBase: "default",
    modeEffective: "default",
    cause: "mode-judgment",
    warnings: [],
    safetyCheck: false,
    remember: {
      session: ["Bash(git push:*)"],
      workspace: ["Bash(git push:*)"],
      workspaceStore: ".claude/settings.local.json",
    },
    decision: { step: "fallback", reason: "test", rule: null },
    createdAt: now.toISOString(),
    displayedAt: null,
    deadline: null,
    settlement: null,
  };
}

export interface TestSendResult {
  statusCode: number | null;
  latencyMs: number;
  /** The receiver's answer, truncated. */
  body: string | null;
  error: string | null;
  ok: boolean;
}

/** Sends one signed `webhook.test` message now and reports the receiver's answer; recorded in the log, never retried. */
export async function sendTest({
  db,
  actor,
  endpointId,
  env = {},
}: {
  db: Db;
  actor: Actor;
  endpointId: string;
  env?: NotifyEnv;
}): Promise<TestSendResult> {
  const endpoint = await requireEndpoint(db, actor, endpointId);
  const now = nowOf(env);
  const msgId = newMessageId();
  const card = sampleCard(now);
  const body = renderBody(
    endpoint.format,
    { type: "webhook.test", msgId, at: now, card, url: `${publicUrlOf(env)}/cards` },
    { ntfyTopic: endpoint.ntfyTopic, ntfyPriority: endpoint.ntfyPriority },
  );
  const outcome = await sendToEndpoint(db, endpoint, body, msgId, env);
  const ok = outcome.verdict.kind === "delivered";
  await db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    await tx.insert(notifyDeliveries).values({
      id,
      endpointId,
      eventType: "webhook.test",
      msgId,
      eventAt: now,
      status: ok ? "delivered" : "failed",
      attempts: 1,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      completedAt: now,
    });
    await tx.insert(notifyAttempts).values({
      deliveryId: id,
      at: now,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseBody: outcome.responseBody,
    });
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId: endpoint.workspaceId }),
      type: "webhook.tested",
      target: endpointId,
      workspaceId: endpoint.workspaceId,
      detail: { statusCode: outcome.statusCode, ok },
    });
  });
  return {
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    body: outcome.responseBody?.slice(0, 500) ?? null,
    error: outcome.error,
    ok,
  };
}
