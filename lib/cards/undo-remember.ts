import "server-only";
import path from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { cards, workspaces } from "@/db/schema";
import { auditActor } from "@/lib/audit";
import { requireCan } from "@/lib/auth/access";
import { actorLabel, answersAsPerson, PERSON_ONLY, type Actor } from "@/lib/auth/actor";
import { revokeEntryAudited } from "@/lib/entries/write-entry";
import { ConflictError, ForbiddenError } from "@/lib/errors";
import { listEntries } from "@/lib/stores";
import { publishCardChange } from "./bus";
import { getCardRow, getCardUnchecked } from "./get-card";
import { cardStorePaths, type CardEnv } from "./policy";
import type { CardView } from "./view";

/** How long after "Always allow" the card offers Undo. */
export const UNDO_WINDOW_SECONDS = 5 * 60;

export const UndoRememberInput = z.object({});

/**
 * Undo an "Always allow" within a few minutes: the rules that answer wrote are revoked from the store file
 * through the store layer (version-checked, atomic), each with its `entry.revoked` audit row, and the card
 * records who undid it. Only the person who answered may undo, from a person's session; later, the Rules page.
 * The card's own approval stands (the agent already ran the call); only the remembered rules go.
 */
export async function undoRemember({
  db,
  actor,
  cardId,
  env = {},
}: {
  db: Db;
  actor: Actor;
  cardId: string;
  env?: CardEnv;
}): Promise<{ card: CardView; revoked: string[] }> {
  if (!answersAsPerson(actor) || actor.kind !== "user") throw new ForbiddenError(`undoing an answer ${PERSON_ONLY}`);
  const card = await getCardRow(db, { actor, cardId });
  const role = requireCan(actor, "card.answer", card.workspaceId);
  const s = card.settlement;
  const saved = s?.saved;
  if (card.status !== "allowed" || s?.remember !== "workspace" || !saved || !saved.store)
    throw new ConflictError("this answer saved no rule to a file: there is nothing to undo");
  if (saved.undone) throw new ConflictError(`already undone by ${saved.undone.by} at ${saved.undone.at}`);
  const who = actorLabel(actor);
  if (card.settledBy !== who)
    throw new ForbiddenError(
      "only the person who answered can undo it; an admin can revoke the rule on the Rules page",
    );
  const now = env.now?.() ?? new Date();
  if (!card.settledAt || now.getTime() - card.settledAt.getTime() > UNDO_WINDOW_SECONDS * 1000)
    throw new ConflictError("Undo is offered for 5 minutes after answering; revoke the rule on the Rules page instead");

  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, card.workspaceId));
  const paths = cardStorePaths(workspace!.path, env);
  const file = path.resolve(paths.workspace, saved.store);
  const revoked: string[] = [];
  for (const rule of saved.rules) {
    // Found again by its text in that file: other edits since the answer may have moved it.
    const { entries } = await listEntries(paths);
    const entry = entries.find((e) => e.store.path === file && e.action === "allow" && e.rule === rule);
    if (!entry) continue;
    // The Rules page's revoke-and-audit path: the agent's own store, and the entry.revoked row with both versions.
    await revokeEntryAudited(db, {
      auditActor: auditActor(actor, { workspaceId: card.workspaceId, role }),
      actorName: who,
      workspaceId: card.workspaceId,
      paths,
      id: entry.id,
      expectedVersion: entry.store.version,
      extra: { undo: { cardId } },
    });
    revoked.push(rule);
  }
  await db
    .update(cards)
    .set({ settlement: { ...s, saved: { ...saved, undone: { by: who, at: now.toISOString() } } } })
    .where(eq(cards.id, cardId));
  publishCardChange({ type: "resolved", cardId, workspaceId: card.workspaceId, status: card.status });
  return { card: await getCardUnchecked(db, cardId), revoked };
}
