import "server-only";
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import { DisplayName } from "./names";
import { z } from "zod";
import type { Db } from "@/db/client";
import { invites, memberships, pushSubscriptions, sessions, users, workspaces } from "@/db/schema";
import { ForbiddenError, GoneError, NotFoundError, ValidationError } from "@/lib/errors";
import { can, canManagePerson, requireCan } from "./access";
import { publishAccessChange } from "./access-bus";
import { actorLabel, ALL_WORKSPACES, WORKSPACE_ROLES, type Actor, type Grant } from "./actor";
import { auditActor, recordAudit } from "@/lib/audit";
import { requireFreshPasskey } from "./passkeys";
import { endSessionsOf, grantsOf, openSession, type NewSession } from "./sessions";
import { digestsEqual, hashToken, randomToken } from "./tokens";

export const INVITE_MAX_HOURS = 7 * 24;
export const INVITE_DEFAULT_HOURS = 72;

const WorkspaceRef = z.string().trim().min(1).max(200);
export const CreateInviteInput = z.object({
  role: z.enum(WORKSPACE_ROLES),
  workspaces: z.union([z.literal(ALL_WORKSPACES), z.array(WorkspaceRef).min(1).max(200)]),
  expiresInHours: z.number().int().min(1).max(INVITE_MAX_HOURS).default(INVITE_DEFAULT_HOURS),
});
export type CreateInviteInput = z.input<typeof CreateInviteInput>;

export const RoleGrant = z.object({
  workspace: z.union([z.literal(ALL_WORKSPACES), WorkspaceRef]),
  role: z.enum(WORKSPACE_ROLES),
});
export const UpdateCollaboratorInput = z.object({
  id: z.string().min(1).max(100),
  roles: z.array(RoleGrant).max(200),
});

/** Grants from an invite's (role, workspaces). */
export function grantsFor(role: Grant["role"], list: string[] | "all"): Grant[] {
  return list === ALL_WORKSPACES
    ? [{ workspace: ALL_WORKSPACES, role }]
    : list.map((workspace) => ({ workspace, role }));
}

async function requireWorkspacesExist(db: Db, ids: string[]): Promise<void> {
  const wanted = [...new Set(ids.filter((w) => w !== ALL_WORKSPACES))];
  if (wanted.length === 0) return;
  const found = await db.select({ id: workspaces.id }).from(workspaces).where(inArray(workspaces.id, wanted));
  const missing = wanted.filter((w) => !found.some((f) => f.id === w));
  if (missing.length) throw new ValidationError(`no workspace with id ${missing.join(", ")}`);
}

/** May the actor hand out these grants? Admin wherever they apply ("all" needs admin on all). */
export function requireGrantable(actor: Actor, grants: Grant[]): string {
  let role = "owner";
  for (const g of grants) {
    role = requireCan(actor, "collaborator.manage", g.workspace === ALL_WORKSPACES ? null : g.workspace);
  }
  return role;
}

/**
 * Creates a single-use invite (admin of every workspace it grants): a 256-bit token whose SHA-256
 * alone is stored; the link is returned once.
 */
export async function createInvite({
  db,
  actor,
  input,
  baseUrl,
}: {
  db: Db;
  actor: Actor;
  input: CreateInviteInput;
  baseUrl: string;
}): Promise<{ id: string; url: string; token: string; expiresAt: string }> {
  const args = CreateInviteInput.parse(input);
  const grants = grantsFor(args.role, args.workspaces);
  const role = requireGrantable(actor, grants);
  // Anyone above viewer can answer or change rules: inviting them is as sensitive as changing a role.
  if (args.role !== "viewer") await requireFreshPasskey(db, actor, `inviting an ${args.role}`);
  await requireWorkspacesExist(
    db,
    grants.map((g) => g.workspace),
  );
  const token = randomToken("cpi_");
  const id = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + args.expiresInHours * 3600_000);
  await db.transaction(async (tx) => {
    await tx.insert(invites).values({
      id,
      tokenHash: hashToken(token),
      role: args.role,
      workspaces: args.workspaces,
      createdBy: actorLabel(actor),
      expiresAt,
    });
    await recordAudit(tx, {
      actor: auditActor(actor, { role }),
      type: "invite.created",
      target: id,
      workspaceId: args.workspaces !== ALL_WORKSPACES && args.workspaces.length === 1 ? args.workspaces[0] : null,
      detail: { role: args.role, workspaces: args.workspaces, expiresAt: expiresAt.toISOString() },
    });
  });
  return { id, token, url: `${baseUrl}/invite?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() };
}

/** Is this invite token still usable? (For the landing page; acceptance re-checks in one conditional UPDATE.) */
export async function inviteIsOpen(db: Db, token: string | undefined | null): Promise<boolean> {
  if (!token || !token.startsWith("cpi_") || token.length > 200) return false;
  const digest = hashToken(token);
  const [row] = await db
    .select({ tokenHash: invites.tokenHash })
    .from(invites)
    .where(and(eq(invites.tokenHash, digest), isNull(invites.usedAt), gt(invites.expiresAt, new Date())));
  return !!row && digestsEqual(row.tokenHash, digest);
}

export const AcceptInviteInput = z.object({
  token: z.string().min(10).max(200),
  name: DisplayName,
});

export const INVITE_GONE =
  "This invite link is invalid, expired or already used. Ask the person who invited you for a new one.";

/**
 * Accepts an invite exactly once (one conditional UPDATE): creates the person with the invite's
 * roles and opens their first session. Unknown, used and expired tokens get the same 410.
 */
export async function acceptInvite({
  db,
  input,
  userAgent,
  previousToken,
}: {
  db: Db;
  input: z.input<typeof AcceptInviteInput>;
  userAgent?: string | null;
  previousToken?: string | null;
}): Promise<NewSession & { name: string }> {
  const args = AcceptInviteInput.parse(input);
  if (!args.token.startsWith("cpi_")) throw new GoneError(INVITE_GONE);
  const digest = hashToken(args.token);
  return db.transaction(async (tx) => {
    const userId = crypto.randomUUID();
    const [claimed] = await tx
      .update(invites)
      .set({ usedAt: new Date() })
      .where(and(eq(invites.tokenHash, digest), isNull(invites.usedAt), gt(invites.expiresAt, new Date())))
      .returning();
    if (!claimed || !digestsEqual(claimed.tokenHash, digest)) throw new GoneError(INVITE_GONE);
    await tx.insert(users).values({ id: userId, name: args.name, invitedBy: claimed.createdBy });
    await tx.update(invites).set({ usedBy: userId }).where(eq(invites.id, claimed.id));
    // Workspaces removed since the invite was made are skipped.
    const existing = new Set((await tx.select({ id: workspaces.id }).from(workspaces)).map((w) => w.id));
    const grants = grantsFor(claimed.role, claimed.workspaces).filter(
      (g) => g.workspace === ALL_WORKSPACES || existing.has(g.workspace),
    );
    for (const g of grants)
      await tx.insert(memberships).values({
        id: crypto.randomUUID(),
        userId,
        workspaceId: g.workspace === ALL_WORKSPACES ? null : g.workspace,
        role: g.role,
      });
    await recordAudit(tx, {
      actor: { type: "user", label: args.name, id: userId, signIn: "invite" },
      type: "invite.accepted",
      target: claimed.id,
      detail: { userId, role: claimed.role, workspaces: claimed.workspaces, invitedBy: claimed.createdBy },
    });
    const session = await openSession(tx, { userId, signIn: "invite", userAgent, previousToken });
    return { ...session, name: args.name };
  });
}

export interface InviteView {
  id: string;
  role: string;
  workspaces: string[] | "all";
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Open (unused, unexpired) invites the caller could have made. */
export async function listInvites({ db, actor }: { db: Db; actor: Actor }): Promise<InviteView[]> {
  const rows = await db
    .select()
    .from(invites)
    .where(and(isNull(invites.usedAt), gt(invites.expiresAt, new Date())))
    .orderBy(invites.createdAt);
  return rows
    .filter((r) => grantsFor(r.role, r.workspaces).every((g) => canGrant(actor, g)))
    .map((r) => ({
      id: r.id,
      role: r.role,
      workspaces: r.workspaces,
      createdBy: r.createdBy,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
    }));
}

const canGrant = (actor: Actor, g: Grant) =>
  can(actor, "collaborator.manage", g.workspace === ALL_WORKSPACES ? null : g.workspace).ok;

export interface Me {
  id: string;
  name: string;
  owner: boolean;
  roles: Grant[];
}

/** `GET /api/v1/me`: who the caller is and their roles per workspace. */
export function me(actor: Actor): Me {
  if (actor.kind === "user")
    return {
      id: actor.userId,
      name: actor.name,
      owner: actor.owner,
      roles: actor.owner ? [{ workspace: ALL_WORKSPACES, role: "admin" }] : actor.grants,
    };
  if (actor.kind === "local")
    return { id: "local-cli", name: "local-cli", owner: true, roles: [{ workspace: ALL_WORKSPACES, role: "admin" }] };
  throw new ForbiddenError("only people have a profile");
}

export interface CollaboratorView {
  id: string;
  name: string;
  owner: boolean;
  roles: Grant[];
  createdAt: string;
  invitedBy: string | null;
  sessions: number;
  lastSeenAt: string | null;
  /** May the caller change or remove this person? */
  manageable: boolean;
}

/**
 * People the caller may see: the owner, and collaborators holding a role in a workspace the caller
 * administers (their roles elsewhere are not shown).
 */
export async function listCollaborators({ db, actor }: { db: Db; actor: Actor }): Promise<CollaboratorView[]> {
  const people = await db.select().from(users).where(isNull(users.removedAt)).orderBy(users.createdAt);
  const open = await db
    .select({ userId: sessions.userId, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(and(isNull(sessions.endedAt), gt(sessions.expiresAt, new Date())));
  const out: CollaboratorView[] = [];
  for (const p of people) {
    const grants = p.isOwner ? [] : await grantsOf(db, p.id);
    const shown = grants.filter((g) => canGrant(actor, g));
    const self = actor.kind === "user" && actor.userId === p.id;
    if (
      !p.isOwner &&
      !self &&
      shown.length === 0 &&
      !(grants.length === 0 && can(actor, "collaborator.manage", null).ok)
    )
      continue;
    const mine = open.filter((s) => s.userId === p.id);
    const last = mine.reduce<Date | null>((a, s) => (!a || s.lastSeenAt > a ? s.lastSeenAt : a), null);
    out.push({
      id: p.id,
      name: p.name,
      owner: p.isOwner,
      roles: p.isOwner ? [{ workspace: ALL_WORKSPACES, role: "admin" }] : self ? grants : shown,
      createdAt: p.createdAt.toISOString(),
      invitedBy: p.invitedBy,
      sessions: mine.length,
      lastSeenAt: last?.toISOString() ?? null,
      manageable: canManagePerson(actor, { owner: p.isOwner, grants }).ok,
    });
  }
  return out;
}

async function personFor(db: Db, actor: Actor, id: string) {
  const [person] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.removedAt)));
  if (!person) throw new NotFoundError(`no collaborator with id ${id}`);
  const grants = person.isOwner ? [] : await grantsOf(db, id);
  const decision = canManagePerson(actor, { owner: person.isOwner, grants });
  if (!decision.ok) {
    // People the caller cannot see at all look absent.
    if (
      !person.isOwner &&
      grants.length > 0 &&
      !grants.some((g) => can(actor, "workspace.view", g.workspace === ALL_WORKSPACES ? null : g.workspace).ok)
    )
      throw new NotFoundError(`no collaborator with id ${id}`);
    throw new ForbiddenError(decision.reason, { needed: decision.needed });
  }
  return { person, grants, role: decision.role };
}

/**
 * Replaces a collaborator's roles (admin wherever the old and the new roles apply; never the owner).
 * Takes effect on their next request; open event streams re-check at once.
 */
export async function updateCollaborator({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof UpdateCollaboratorInput>;
}): Promise<CollaboratorView> {
  const args = UpdateCollaboratorInput.parse(input);
  const { person, grants: before, role } = await personFor(db, actor, args.id);
  const after = dedupe(args.roles);
  requireGrantable(actor, after);
  await requireFreshPasskey(db, actor, "changing roles");
  await requireWorkspacesExist(
    db,
    after.map((g) => g.workspace),
  );
  await db.transaction(async (tx) => {
    await tx.delete(memberships).where(eq(memberships.userId, person.id));
    for (const g of after)
      await tx.insert(memberships).values({
        id: crypto.randomUUID(),
        userId: person.id,
        workspaceId: g.workspace === ALL_WORKSPACES ? null : g.workspace,
        role: g.role,
      });
    await recordAudit(tx, {
      actor: auditActor(actor, { role }),
      type: "collaborator.roles_changed",
      target: person.id,
      detail: { name: person.name, before, after },
    });
  });
  publishAccessChange({ userId: person.id });
  const view = (await listCollaborators({ db, actor })).find((c) => c.id === person.id);
  return (
    view ?? {
      id: person.id,
      name: person.name,
      owner: false,
      roles: [],
      createdAt: person.createdAt.toISOString(),
      invitedBy: person.invitedBy,
      sessions: 0,
      lastSeenAt: null,
      manageable: true,
    }
  );
}

function dedupe(grants: Grant[]): Grant[] {
  const byWs = new Map<string, Grant>();
  for (const g of grants) {
    const had = byWs.get(g.workspace);
    if (!had || WORKSPACE_ROLES.indexOf(g.role) > WORKSPACE_ROLES.indexOf(had.role)) byWs.set(g.workspace, g);
  }
  return [...byWs.values()];
}

/** Removes a collaborator: roles gone, every session ended, push stopped; the row stays for the audit log. */
export async function removeCollaborator({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: { id: string };
}): Promise<{ removed: string }> {
  const { person, grants, role } = await personFor(db, actor, z.string().min(1).max(100).parse(input.id));
  await db.transaction(async (tx) => {
    await tx.update(users).set({ removedAt: new Date() }).where(eq(users.id, person.id));
    await tx.delete(memberships).where(eq(memberships.userId, person.id));
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, person.id));
    await endSessionsOf(tx, [person.id], `removed by ${actorLabel(actor)}`);
    await recordAudit(tx, {
      actor: auditActor(actor, { role }),
      type: "collaborator.removed",
      target: person.id,
      detail: { name: person.name, roles: grants },
    });
  });
  publishAccessChange({ userId: person.id });
  return { removed: person.id };
}
