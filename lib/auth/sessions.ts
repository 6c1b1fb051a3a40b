import "server-only";
import { and, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { memberships, sessions, users } from "@/db/schema";
import { auditActor, recordAudit, type Tx } from "@/lib/audit";
import { env } from "@/lib/config/env";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { canManagePerson } from "./access";
import { publishAccessChange } from "./access-bus";
import { actorLabel, ALL_WORKSPACES, type Actor, type Grant, type PersonActor } from "./actor";
import { describeDevice, isPhone } from "./device";
import { digestsEqual, hashToken, randomToken } from "./tokens";

export type SignIn = "link" | "invite" | "pair" | "passkey";

export interface NewSession {
  sessionToken: string;
  sessionId: string;
  userId: string;
  expiresAt: Date;
}

/** Timeouts from the environment: absolute (hours since sign-in) and idle (minutes since the last request). */
export function sessionTimeouts(): { absoluteHours: number; idleMinutes: number } {
  return { absoluteHours: env().COCKPIT_SESSION_TTL_HOURS, idleMinutes: env().COCKPIT_SESSION_IDLE_MINUTES };
}

/**
 * Opens a new session (a fresh 256-bit token and id on every sign-in, so a planted id never becomes
 * signed in) and ends the session the request came with, if any.
 */
export async function openSession(
  tx: Tx,
  {
    userId,
    signIn,
    userAgent,
    previousToken,
    ttlHours = sessionTimeouts().absoluteHours,
    loginTokenId,
  }: {
    userId: string;
    signIn: SignIn;
    userAgent?: string | null;
    previousToken?: string | null;
    ttlHours?: number;
    /** The login link that opened it (the web app's login-link notice leaves that one out). */
    loginTokenId?: string;
  },
): Promise<NewSession> {
  if (previousToken && previousToken.length <= 200)
    await tx
      .update(sessions)
      .set({ endedAt: new Date(), endedBy: "rotated at sign-in" })
      .where(and(eq(sessions.tokenHash, hashToken(previousToken)), isNull(sessions.endedAt)));
  const sessionToken = randomToken("cps_");
  const sessionId = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + ttlHours * 3600 * 1000);
  const ua = userAgent?.slice(0, 300) ?? null;
  await tx
    .insert(sessions)
    .values({ id: sessionId, tokenHash: hashToken(sessionToken), userId, expiresAt, userAgent: ua, signIn });
  await recordAudit(tx, {
    type: "auth.login",
    actor: {
      type: "user",
      label: userId,
      id: userId,
      session: sessionId,
      channel: isPhone(ua) ? "phone" : "web",
      device: describeDevice(ua),
      signIn,
    },
    target: sessionId,
    outcome: "allow",
    detail: { userAgent: ua, ...(loginTokenId ? { loginTokenId } : {}) },
  });
  return { sessionToken, sessionId, userId, expiresAt };
}

/** A person's current grants, read from the database (never from the request). */
export async function grantsOf(db: DbOrTx, userId: string): Promise<Grant[]> {
  const rows = await db
    .select({ workspaceId: memberships.workspaceId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  return rows.map((r) => ({ workspace: r.workspaceId ?? ALL_WORKSPACES, role: r.role }));
}

const LAST_SEEN_GRANULARITY_MS = 30_000;

/**
 * The signed-in person behind a session token with their current grants, or null when the session
 * is unknown, ended, past its absolute lifetime, idle too long, or its person was removed.
 */
export async function actorFromSessionToken(
  db: DbOrTx,
  token: string | undefined | null,
  { userAgent, now = new Date(), touch = true }: { userAgent?: string | null; now?: Date; touch?: boolean } = {},
): Promise<PersonActor | null> {
  if (!token || token.length > 200) return null;
  const digest = hashToken(token);
  const [row] = await db
    .select({
      sessionId: sessions.id,
      tokenHash: sessions.tokenHash,
      lastSeenAt: sessions.lastSeenAt,
      signIn: sessions.signIn,
      sessionUserAgent: sessions.userAgent,
      userId: users.id,
      name: users.name,
      isOwner: users.isOwner,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, digest),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, now),
        isNull(users.removedAt),
      ),
    )
    .limit(1);
  if (!row || !digestsEqual(row.tokenHash, digest)) return null;
  const idleMs = sessionTimeouts().idleMinutes * 60_000;
  if (now.getTime() - row.lastSeenAt.getTime() > idleMs) {
    await db
      .update(sessions)
      .set({ endedAt: now, endedBy: "idle timeout" })
      .where(and(eq(sessions.id, row.sessionId), isNull(sessions.endedAt)));
    return null;
  }
  if (touch && now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_GRANULARITY_MS)
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  const ua = userAgent ?? row.sessionUserAgent;
  return {
    kind: "user",
    userId: row.userId,
    name: row.name,
    owner: row.isOwner,
    grants: row.isOwner ? [] : await grantsOf(db, row.userId),
    sessionId: row.sessionId,
    signIn: row.signIn,
    device: describeDevice(ua),
    channel: isPhone(ua) ? "phone" : "web",
  };
}

/** Is this person still allowed in, with which grants? Re-read inside transactions that must not act on stale rights. */
export async function currentPerson(
  db: DbOrTx,
  actor: PersonActor,
): Promise<{ owner: boolean; grants: Grant[] } | null> {
  const [row] = await db
    .select({ isOwner: users.isOwner, removedAt: users.removedAt, endedAt: sessions.endedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, actor.sessionId), eq(users.id, actor.userId)));
  if (!row || row.removedAt || row.endedAt) return null;
  return { owner: row.isOwner, grants: row.isOwner ? [] : await grantsOf(db, actor.userId) };
}

export const ListSessionsInput = z.object({ user: z.string().min(1).max(100).optional() });

export interface SessionView {
  id: string;
  userId: string;
  device: string;
  userAgent: string | null;
  signIn: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  current: boolean;
}

async function targetOf(db: DbOrTx, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new NotFoundError(`no person with id ${userId}`);
  return { user, grants: await grantsOf(db, userId) };
}

/** May `actor` see and end `userId`'s sessions? Yourself always; others if you may manage them. */
async function requireSessionRights(db: DbOrTx, actor: Actor, userId: string): Promise<void> {
  if (actor.kind === "user" && actor.userId === userId) return;
  if (actor.kind === "agent" || actor.kind === "notification") throw new ForbiddenError("only people manage sessions");
  const target = await targetOf(db, userId);
  if (actor.kind === "local") return;
  const decision = canManagePerson(actor, { owner: target.user.isOwner, grants: target.grants });
  if (!decision.ok) throw new ForbiddenError(decision.reason, { needed: decision.needed });
}

/** A person's open sessions (devices): the caller's own by default, another person's for an admin over them. */
export async function listSessions({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof ListSessionsInput>;
}): Promise<SessionView[]> {
  const args = ListSessionsInput.parse(input);
  const userId = args.user ?? (actor.kind === "user" ? actor.userId : null);
  if (!userId) return [];
  await requireSessionRights(db, actor, userId);
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt));
  return rows.map((s) => ({
    id: s.id,
    userId: s.userId,
    device: describeDevice(s.userAgent),
    userAgent: s.userAgent,
    signIn: s.signIn,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    current: actor.kind === "user" && actor.sessionId === s.id,
  }));
}

export const EndSessionInput = z.object({ sessionId: z.string().min(1).max(100) });

/** Ends a session server-side: the cookie stops working even if a copy survives, and open event streams close. */
export async function endSession({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof EndSessionInput>;
}): Promise<{ ended: string }> {
  const args = EndSessionInput.parse(input);
  const [row] = await db.select().from(sessions).where(eq(sessions.id, args.sessionId));
  if (!row) throw new NotFoundError(`no session ${args.sessionId}`);
  await requireSessionRights(db, actor, row.userId);
  const own = actor.kind === "user" && actor.sessionId === row.id;
  await db.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({ endedAt: new Date(), endedBy: actorLabel(actor) })
      .where(and(eq(sessions.id, row.id), isNull(sessions.endedAt)));
    await recordAudit(tx, {
      type: own ? "auth.logout" : "auth.session_ended",
      actor: auditActor(actor),
      target: row.id,
      detail: { userId: row.userId },
    });
  });
  publishAccessChange({ userId: row.userId });
  return { ended: row.id };
}

/** Ends every session of these people (removal). */
export async function endSessionsOf(tx: DbOrTx, userIds: string[], by: string): Promise<void> {
  if (userIds.length === 0) return;
  await tx
    .update(sessions)
    .set({ endedAt: new Date(), endedBy: by })
    .where(and(inArray(sessions.userId, userIds), isNull(sessions.endedAt)));
}
