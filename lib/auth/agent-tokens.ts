import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { agentTokens, workspaces } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { NotFoundError } from "@/lib/errors";
import { can, requireCan, visibleWorkspaces } from "./access";
import { actorLabel, type Actor, type AgentActor } from "./actor";
import { digestsEqual, hashToken, randomToken } from "./tokens";

export const CreateAgentTokenInput = z.object({
  workspaceId: z.string().min(1).max(200),
  name: z.string().trim().min(1).max(200).optional(),
});

/** Creates an agent token for one workspace (admin there); the plain token is returned once and never stored. */
export async function createAgentToken({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof CreateAgentTokenInput>;
}): Promise<{ id: string; token: string; name: string }> {
  const { workspaceId, name } = CreateAgentTokenInput.parse(input);
  const role = requireCan(actor, "agent_token.manage", workspaceId);
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw new NotFoundError(`no workspace with id ${workspaceId}`);
  const token = randomToken("cpa_");
  const id = crypto.randomUUID();
  const label = name?.trim() || `agent token ${new Date().toISOString().slice(0, 16).replace("T", " ")}`;
  await db.transaction(async (tx) => {
    await tx.insert(agentTokens).values({ id, workspaceId, name: label, tokenHash: hashToken(token) });
    await recordAudit(tx, {
      type: "agent_token.created",
      actor: auditActor(actor, { workspaceId, role }),
      target: id,
      workspaceId,
      detail: { name: label },
    });
  });
  return { id, token, name: label };
}

/** Agent tokens of the workspaces where the caller is admin (optionally one workspace). */
export async function listAgentTokens({
  db,
  actor,
  input = {},
}: {
  db: Db;
  actor: Actor;
  input?: { workspaceId?: string };
}) {
  if (input.workspaceId) requireCan(actor, "agent_token.manage", input.workspaceId);
  const visible = visibleWorkspaces(actor);
  const rows = await db
    .select({
      id: agentTokens.id,
      name: agentTokens.name,
      workspaceId: agentTokens.workspaceId,
      createdAt: agentTokens.createdAt,
      lastUsedAt: agentTokens.lastUsedAt,
      revokedAt: agentTokens.revokedAt,
    })
    .from(agentTokens)
    .where(
      input.workspaceId
        ? eq(agentTokens.workspaceId, input.workspaceId)
        : visible === "all"
          ? undefined
          : inArray(agentTokens.workspaceId, visible.length ? visible : ["-"]),
    )
    .orderBy(agentTokens.createdAt);
  return rows.filter((r) => can(actor, "agent_token.manage", r.workspaceId).ok);
}

export const RevokeAgentTokenInput = z.object({ id: z.string().min(1).max(100) });

export async function revokeAgentToken({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof RevokeAgentTokenInput>;
}): Promise<void> {
  const { id } = RevokeAgentTokenInput.parse(input);
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(agentTokens).where(eq(agentTokens.id, id));
    if (!current || !can(actor, "workspace.view", current.workspaceId).ok)
      throw new NotFoundError(`no active agent token with id ${id}`);
    const role = requireCan(actor, "agent_token.manage", current.workspaceId);
    const [row] = await tx
      .update(agentTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(agentTokens.id, id), isNull(agentTokens.revokedAt)))
      .returning();
    if (!row) throw new NotFoundError(`no active agent token with id ${id}`);
    await recordAudit(tx, {
      type: "agent_token.revoked",
      actor: auditActor(actor, { workspaceId: row.workspaceId, role }),
      target: id,
      workspaceId: row.workspaceId,
    });
  });
}

/** The agent behind a bearer token, or null for an unknown or revoked one. */
export async function actorFromAgentToken(db: Db, token: string | null | undefined): Promise<AgentActor | null> {
  if (!token || !token.startsWith("cpa_") || token.length > 200) return null;
  const digest = hashToken(token);
  const [row] = await db
    .select()
    .from(agentTokens)
    .where(and(eq(agentTokens.tokenHash, digest), isNull(agentTokens.revokedAt)))
    .limit(1);
  if (!row || !digestsEqual(row.tokenHash, digest)) return null;
  await db.update(agentTokens).set({ lastUsedAt: new Date() }).where(eq(agentTokens.id, row.id));
  return { kind: "agent", tokenId: row.id, workspaceId: row.workspaceId, name: row.name };
}
