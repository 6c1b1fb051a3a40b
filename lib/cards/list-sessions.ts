import "server-only";
import { eq, isNotNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards, sessionHolds, workspaces } from "@/db/schema";
import { seesWorkspace } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";

export interface RootSessionView {
  workspace: { id: string; name: string };
  rootSessionId: string;
  pending: number;
  deadline: string | null;
  heldSince: string | null;
}

/** Root sessions with something to show (pending cards, a running absence deadline or a hold), in the actor's workspaces. */
export async function listRootSessions({ db, actor }: { db: DbOrTx; actor: Actor }): Promise<RootSessionView[]> {
  const pending = await db
    .select({ workspaceId: cards.workspaceId, rootSessionId: cards.rootSessionId, n: sql<number>`count(*)::int` })
    .from(cards)
    .where(eq(cards.status, "pending"))
    .groupBy(cards.workspaceId, cards.rootSessionId);
  const holds = await db
    .select()
    .from(sessionHolds)
    .where(or(isNotNull(sessionHolds.deadlineAt), isNotNull(sessionHolds.heldAt)));
  const names = new Map(
    (await db.select({ id: workspaces.id, name: workspaces.name }).from(workspaces)).map((w) => [w.id, w.name]),
  );
  const out = new Map<string, RootSessionView>();
  const key = (w: string, r: string) => `${w}\u0000${r}`;
  for (const p of pending)
    out.set(key(p.workspaceId, p.rootSessionId), {
      workspace: { id: p.workspaceId, name: names.get(p.workspaceId) ?? "?" },
      rootSessionId: p.rootSessionId,
      pending: Number(p.n),
      deadline: null,
      heldSince: null,
    });
  for (const h of holds) {
    const k = key(h.workspaceId, h.rootSessionId);
    const row = out.get(k) ?? {
      workspace: { id: h.workspaceId, name: names.get(h.workspaceId) ?? "?" },
      rootSessionId: h.rootSessionId,
      pending: 0,
      deadline: null,
      heldSince: null,
    };
    row.deadline = h.deadlineAt?.toISOString() ?? null;
    row.heldSince = h.heldAt?.toISOString() ?? null;
    out.set(k, row);
  }
  return [...out.values()]
    .filter((r) => seesWorkspace(actor, r.workspace.id))
    .sort((a, b) => b.pending - a.pending || a.rootSessionId.localeCompare(b.rootSessionId));
}
