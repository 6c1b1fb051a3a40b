import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { notifyAttempts, notifyDeliveries, webhookEndpoints, workspaces } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { can, requireCan } from "@/lib/auth/access";
import { requireFreshPasskey } from "@/lib/auth/passkeys";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { findWorkspace } from "@/lib/workspaces/workspaces";
import type { NotifyEnv } from "./notify-env";
import { targetPolicy } from "./settings";
import { newWebhookSecret } from "./signing";
import { checkTarget, parseTargetUrl } from "./ssrf";

export const WEBHOOK_FORMATS = ["json", "ntfy", "slack", "discord"] as const;
export const NOTIFY_EVENTS = ["card.admitted", "card.settled", "card.expired", "audit.checkpoint"] as const;

const Topic = z
  .string()
  .trim()
  .regex(/^[-_A-Za-z0-9]{1,64}$/, "an ntfy topic: letters, digits, - and _ (up to 64)");
const fields = {
  url: z.string().trim().min(1, "give the receiver's URL").max(2000),
  workspace: z.string().trim().min(1).max(4096).nullable().optional(),
  events: z.array(z.enum(NOTIFY_EVENTS)).min(1, "pick at least one event").max(NOTIFY_EVENTS.length),
  enabled: z.boolean(),
  delaySeconds: z.number().int().min(0).max(86_400),
  ntfyTopic: Topic.nullable().optional(),
  ntfyPriority: z.number().int().min(1).max(5).nullable().optional(),
  ntfyToken: z
    .string()
    .trim()
    .regex(/^tk_[A-Za-z0-9]{1,100}$/, "an ntfy access token looks like tk_…")
    .nullable()
    .optional(),
};

export const CreateEndpointInput = z.object({
  ...fields,
  format: z.enum(WEBHOOK_FORMATS).default("json"),
  events: fields.events.default(["card.admitted"]),
  enabled: fields.enabled.default(true),
  delaySeconds: fields.delaySeconds.default(0),
});
export type CreateEndpointInput = z.input<typeof CreateEndpointInput>;

export const UpdateEndpointInput = z.object({ ...fields, format: z.enum(WEBHOOK_FORMATS) }).partial();
export type UpdateEndpointInput = z.infer<typeof UpdateEndpointInput>;

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
/** What the API and UI show: everything but the secret. */
export type EndpointView = Omit<EndpointRow, "secret" | "ntfyToken" | "createdAt" | "updatedAt"> & {
  workspaceName: string | null;
  hasNtfyToken: boolean;
  createdAt: string;
  updatedAt: string;
};

/** Managing an endpoint needs admin in its workspace; an endpoint for every workspace (null) needs admin on all. */
function assertAdmin(actor: Actor, workspaceId: string | null) {
  return requireCan(actor, "webhook.manage", workspaceId);
}

/** The endpoint, for an admin of its workspace; others get 404 (its existence is not revealed). */
export async function requireEndpoint(db: Db, actor: Actor, id: string): Promise<EndpointRow> {
  const row = await getEndpointRow(db, id);
  if (can(actor, "webhook.manage", row.workspaceId).ok) return row;
  if (row.workspaceId === null || can(actor, "workspace.view", row.workspaceId).ok) assertAdmin(actor, row.workspaceId);
  throw new NotFoundError(`no webhook endpoint ${id}`);
}

/** For ntfy, `https://ntfy.sh/topic` is split into the server root and the topic (JSON publishing posts to the root). */
function normaliseNtfy(url: string, topic: string | null | undefined): { url: string; topic: string } {
  const parsed = parseTargetUrl(url);
  const segments = parsed.pathname.split("/").filter(Boolean);
  let t = topic ?? null;
  if (!t && segments.length > 0) t = segments.pop()!;
  if (!t)
    throw new ValidationError(
      "ntfy needs a topic: give it in the topic field or as the URL's path (https://ntfy.sh/your-topic)",
    );
  Topic.parse(t);
  const root = `${parsed.origin}${segments.length ? `/${segments.join("/")}` : ""}`;
  return { url: root, topic: t };
}

async function workspaceIdOf(db: Db, ref: string | null | undefined): Promise<string | null> {
  if (!ref) return null;
  return (await findWorkspace(db, ref)).id;
}

function auditUrl(url: string): string {
  // Slack and Discord URLs carry their secret in the path: the audit keeps the origin only.
  return new URL(url).origin;
}

/** Adds an endpoint after checking its URL against the SSRF policy; the secret is returned once, here. */
export async function createEndpoint({
  db,
  actor,
  input,
  env = {},
}: {
  db: Db;
  actor: Actor;
  input: CreateEndpointInput;
  env?: NotifyEnv;
}): Promise<{ endpoint: EndpointView; secret: string }> {
  const data = CreateEndpointInput.parse(input);
  assertAdmin(actor, await workspaceIdOf(db, data.workspace));
  await requireFreshPasskey(db, actor, "adding a webhook");
  let url = parseTargetUrl(data.url).toString();
  let ntfyTopic: string | null = null;
  if (data.format === "ntfy") ({ url, topic: ntfyTopic } = normaliseNtfy(data.url, data.ntfyTopic));
  await checkTarget(new URL(url), await targetPolicy(db, env));
  const workspaceId = await workspaceIdOf(db, data.workspace);
  const secret = newWebhookSecret();
  const id = `ep_${crypto.randomUUID()}`;
  const who = actorLabel(actor);
  await db.transaction(async (tx) => {
    await tx.insert(webhookEndpoints).values({
      id,
      workspaceId,
      url,
      format: data.format,
      events: [...new Set(data.events)],
      enabled: data.enabled,
      delaySeconds: data.delaySeconds,
      ntfyTopic,
      ntfyPriority: data.format === "ntfy" ? (data.ntfyPriority ?? null) : null,
      ntfyToken: data.format === "ntfy" ? (data.ntfyToken ?? null) : null,
      secret,
      createdBy: who,
    });
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId }),
      type: "webhook.created",
      target: id,
      workspaceId,
      detail: { origin: auditUrl(url), format: data.format, events: data.events },
    });
  });
  return { endpoint: await getEndpoint(db, id), secret };
}

export async function getEndpointRow(db: Db, id: string): Promise<EndpointRow> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw new NotFoundError(`no webhook endpoint ${id}`);
  return row;
}

function toView(row: EndpointRow, workspaceName: string | null): EndpointView {
  const { secret: _secret, ntfyToken, createdAt, updatedAt, ...rest } = row;
  return {
    ...rest,
    workspaceName,
    hasNtfyToken: Boolean(ntfyToken),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

export async function getEndpoint(db: Db, id: string): Promise<EndpointView> {
  const row = await getEndpointRow(db, id);
  const [ws] = row.workspaceId ? await db.select().from(workspaces).where(eq(workspaces.id, row.workspaceId)) : [];
  return toView(row, ws?.name ?? null);
}

/** Endpoints the caller administers (every endpoint without an actor: server-side use only). */
export async function listEndpoints(db: Db, actor: Actor): Promise<EndpointView[]> {
  const rows = await db
    .select({ e: webhookEndpoints, name: workspaces.name })
    .from(webhookEndpoints)
    .leftJoin(workspaces, eq(workspaces.id, webhookEndpoints.workspaceId))
    .orderBy(webhookEndpoints.createdAt);
  return rows.filter((r) => can(actor, "webhook.manage", r.e.workspaceId).ok).map((r) => toView(r.e, r.name ?? null));
}

export async function updateEndpoint({
  db,
  actor,
  id,
  input,
  env = {},
}: {
  db: Db;
  actor: Actor;
  id: string;
  input: UpdateEndpointInput;
  env?: NotifyEnv;
}): Promise<EndpointView> {
  const data = UpdateEndpointInput.parse(input);
  const current = await requireEndpoint(db, actor, id);
  assertAdmin(actor, current.workspaceId);
  const format = data.format ?? current.format;
  const patch: Partial<EndpointRow> = { updatedAt: new Date() };
  if (data.url !== undefined || data.format !== undefined || data.ntfyTopic !== undefined) {
    let url = parseTargetUrl(data.url ?? current.url).toString();
    let topic: string | null = null;
    if (format === "ntfy")
      ({ url, topic } = normaliseNtfy(
        data.url ?? current.url,
        data.ntfyTopic === undefined ? current.ntfyTopic : data.ntfyTopic,
      ));
    await checkTarget(new URL(url), await targetPolicy(db, env));
    // Where a webhook delivers decides who gets its Approve/Deny buttons: retargeting is as sensitive as adding one.
    if (url !== current.url || topic !== current.ntfyTopic || format !== current.format)
      await requireFreshPasskey(db, actor, "changing where a webhook delivers");
    Object.assign(patch, { url, ntfyTopic: topic, format });
  }
  if (data.events) patch.events = [...new Set(data.events)];
  if (data.delaySeconds !== undefined) patch.delaySeconds = data.delaySeconds;
  if (data.ntfyPriority !== undefined) patch.ntfyPriority = data.ntfyPriority;
  if (data.ntfyToken !== undefined) patch.ntfyToken = data.ntfyToken;
  if (data.workspace !== undefined) {
    patch.workspaceId = await workspaceIdOf(db, data.workspace);
    assertAdmin(actor, patch.workspaceId);
  }
  if (data.enabled !== undefined) {
    patch.enabled = data.enabled;
    if (data.enabled) patch.disabledReason = null;
  }
  await db.transaction(async (tx) => {
    await tx.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, id));
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId: current.workspaceId }),
      type: "webhook.updated",
      target: id,
      workspaceId: current.workspaceId,
      detail: { fields: Object.keys(data) },
    });
  });
  return getEndpoint(db, id);
}

export async function deleteEndpoint({ db, actor, id }: { db: Db; actor: Actor; id: string }): Promise<void> {
  const current = await requireEndpoint(db, actor, id);
  assertAdmin(actor, current.workspaceId);
  await db.transaction(async (tx) => {
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId: current.workspaceId }),
      type: "webhook.deleted",
      target: id,
      workspaceId: current.workspaceId,
      detail: { origin: auditUrl(current.url) },
    });
  });
}

export interface DeliveryLogEntry {
  id: string;
  eventType: string;
  cardId: string | null;
  msgId: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  log: Array<{
    at: string;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
    responseBody: string | null;
  }>;
}

/** The newest deliveries of one endpoint with every attempt. */
export async function listDeliveries(
  db: Db,
  { endpointId, limit = 30 }: { endpointId: string; limit?: number },
): Promise<DeliveryLogEntry[]> {
  await getEndpointRow(db, endpointId);
  const rows = await db
    .select()
    .from(notifyDeliveries)
    .where(eq(notifyDeliveries.endpointId, endpointId))
    .orderBy(desc(notifyDeliveries.createdAt))
    .limit(limit);
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await db.select().from(notifyAttempts).where(inArray(notifyAttempts.deliveryId, ids)).orderBy(notifyAttempts.id)
    : [];
  return rows.map((r) => ({
    id: r.id,
    eventType: r.eventType,
    cardId: r.cardId,
    msgId: r.msgId,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === "pending" ? (r.nextAttemptAt?.toISOString() ?? null) : null,
    lastStatusCode: r.lastStatusCode,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
    log: attempts
      .filter((a) => a.deliveryId === r.id)
      .map((a) => ({
        at: a.at.toISOString(),
        statusCode: a.statusCode,
        latencyMs: a.latencyMs,
        error: a.error,
        responseBody: a.responseBody,
      })),
  }));
}

/** Sends a delivery again now with the same webhook-id (receivers dedupe on it); its attempt log continues. */
export async function redeliver({
  db,
  actor,
  endpointId,
  deliveryId,
  now = new Date(),
}: {
  db: Db;
  actor: Actor;
  endpointId: string;
  deliveryId: string;
  now?: Date;
}): Promise<void> {
  const endpoint = await requireEndpoint(db, actor, endpointId);
  assertAdmin(actor, endpoint.workspaceId);
  const [row] = await db
    .select()
    .from(notifyDeliveries)
    .where(and(eq(notifyDeliveries.id, deliveryId), eq(notifyDeliveries.endpointId, endpointId)));
  if (!row) throw new NotFoundError(`no delivery ${deliveryId} for this endpoint`);
  if (!row.cardId) throw new ValidationError("a test send is not redelivered; press Send test again");
  if (row.status === "skipped")
    throw new ValidationError("this delivery was skipped because the card was answered within the endpoint's delay");
  await db.transaction(async (tx) => {
    await tx
      .update(notifyDeliveries)
      .set({ status: "pending", nextAttemptAt: now, leaseUntil: null, completedAt: null })
      .where(eq(notifyDeliveries.id, deliveryId));
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId: endpoint.workspaceId }),
      type: "webhook.redelivered",
      target: deliveryId,
      workspaceId: endpoint.workspaceId,
      detail: { endpointId, msgId: row.msgId },
    });
  });
}
