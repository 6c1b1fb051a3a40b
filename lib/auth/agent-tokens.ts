import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agentTokens, workspaces } from "@/db/schema";
import { namedActor, recordAudit } from "@/lib/audit";
import { NotFoundError } from "@/lib/errors";
import type { Actor } from "./actor";
import { digestsEqual, hashToken, randomToken } from "./tokens";

/** Creates an agent token for one workspace; the plain token is returned once and never stored. */
export async function createAgentToken(
  db: Db,
  { actorName, workspaceId, name }: { actorName: string; workspaceId: string; name?: string },
): Promise<{ id: string; token: string; name: string }> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw new NotFoundError(`no workspace with id ${workspaceId}`);
  const token = randomToken("cpa_");
  const id = crypto.randomUUID();
  const label = name?.trim() || `agent token ${new Date().toISOString().slice(0, 16).replace("T", " ")}`;
  await db.transaction(async (tx) => {
    await tx.insert(agentTokens).values({ id, workspaceId, name: label, tokenHash: hashToken(token) });
    await recordAudit(tx, {
      type: "agent_token.created",
      actor: namedActor(actorName),
      target: id,
      workspaceId,
      detail: { name: label },
    });
  });
  return { id, token, name: label };
}

export async function listAgentTokens(db: Db, workspaceId?: string) {
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
    .where(workspaceId ? eq(agentTokens.workspaceId, workspaceId) : undefined)
    .orderBy(agentTokens.createdAt);
  return rows;
}

export async function revokeAgentToken(db: Db, { actorName, id }: { actorName: string; id: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(agentTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(agentTokens.id, id), isNull(agentTokens.revokedAt)))
      .returning();
    if (!row) throw new NotFoundError(`no active agent token with id ${id}`);
    await recordAudit(tx, {
      type: "agent_token.revoked",
      actor: namedActor(actorName),
      target: id,
      workspaceId: row.workspaceId,
    });
  });
}

/** The agent behind a bearer token, or null for an unknown or revoked one. */
export async function actorFromAgentToken(db: Db, token: string | null | undefined): Promise<Actor | null> {
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
