import "server-only";
import { and, eq, gt, isNull } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { passkeys, sessions, users, webauthnChallenges } from "@/db/schema";
import { ConflictError, ForbiddenError, GoneError, NotFoundError, ValidationError } from "@/lib/errors";
import { publicBaseUrl } from "@/lib/config/base-url";
import { actorLabel, isPerson, type Actor, type PersonActor } from "./actor";
import { describeDevice } from "./device";
import { auditActor, recordAudit } from "@/lib/audit";

/** Challenges live five minutes and are used once. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * The relying party: the host and origin of COCKPIT_PUBLIC_URL (else http://localhost:PORT). WebAuthn refuses
 * IP addresses as relying-party ids, so a loopback address (the default `http://127.0.0.1:PORT`) becomes
 * `localhost`, the one loopback name browsers accept: passkeys then work on http://localhost:PORT.
 */
export function relyingParty(base = publicBaseUrl()): { rpID: string; origin: string; rpName: string } {
  const url = new URL(base);
  if (url.hostname === "127.0.0.1" || url.hostname === "[::1]") url.hostname = "localhost";
  return { rpID: url.hostname, origin: url.origin, rpName: "Permissions Cockpit" };
}

/** What an approval challenge is bound to; stored with the challenge, compared before the assertion counts. */
export interface ApprovalBinding {
  cardId: string;
  cardHash: string;
  outcome: string;
  remember: string;
}

function requirePerson(actor: Actor): PersonActor {
  if (!isPerson(actor)) throw new ForbiddenError("only a signed-in person has passkeys");
  return actor;
}

async function storeChallenge(db: DbOrTx, challenge: string, purpose: string, userId: string | null, data = {}) {
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS);
  // Never re-armed: a challenge that was issued once (used or not) is never issued again.
  const inserted = await db
    .insert(webauthnChallenges)
    .values({ id: crypto.randomUUID(), challenge, purpose, userId, data, expiresAt })
    .onConflictDoNothing({ target: webauthnChallenges.challenge })
    .returning({ id: webauthnChallenges.id });
  if (inserted.length === 0) throw new ConflictError("that passkey challenge was already issued; ask for a new one");
}

/** Uses a stored challenge once (one conditional UPDATE); refuses unknown, used, expired or foreign ones. */
async function consumeChallenge(db: DbOrTx, challenge: string, purpose: string, userId: string | null) {
  const [row] = await db
    .update(webauthnChallenges)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, new Date()),
        userId === null ? undefined : eq(webauthnChallenges.userId, userId),
      ),
    )
    .returning();
  if (!row) throw new GoneError("the passkey challenge is unknown, used or expired; try again");
  return row;
}

function clientChallenge(response: { response: { clientDataJSON: string } }): string {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, "base64url").toString("utf8")) as {
      challenge?: string;
    };
    if (typeof data.challenge !== "string") throw new Error();
    return data.challenge;
  } catch {
    throw new ValidationError("the passkey response is malformed");
  }
}

/**
 * Registering a passkey when the person already has one needs a fresh confirmation with an existing one, made in
 * this session: a stolen cookie cannot add the attacker's key. A person's FIRST passkey cannot be confirmed that
 * way; it is announced instead (pendingPasskeyNotices) to every other session of the person, which may remove it.
 */
async function requireEnrolmentRight(db: DbOrTx, person: PersonActor): Promise<void> {
  await requireFreshPasskey(db, person, "adding another passkey");
}

export async function passkeyRegistrationOptions({ db, actor }: { db: Db; actor: Actor }) {
  const person = requirePerson(actor);
  await requireEnrolmentRight(db, person);
  const rp = relyingParty();
  const existing = await db.select().from(passkeys).where(eq(passkeys.userId, person.userId));
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: person.name,
    userID: new TextEncoder().encode(person.userId),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await storeChallenge(db, options.challenge, "register", person.userId);
  return options;
}

export const RegisterPasskeyInput = z.object({
  name: z.string().trim().min(1).max(100).default("passkey"),
  response: z.looseObject({ id: z.string(), response: z.looseObject({ clientDataJSON: z.string() }) }),
});

/** Verifies a registration against its stored challenge and keeps the credential (several per person). */
export async function registerPasskey({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof RegisterPasskeyInput>;
}): Promise<{ id: string; name: string }> {
  const person = requirePerson(actor);
  const args = RegisterPasskeyInput.parse(input);
  await requireEnrolmentRight(db, person);
  const challenge = clientChallenge(args.response);
  await consumeChallenge(db, challenge, "register", person.userId);
  const rp = relyingParty();
  const verification = await verifyRegistrationResponse({
    response: args.response as unknown as RegistrationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: false,
  }).catch((error: Error) => {
    throw new ValidationError(`the passkey was not accepted: ${error.message}`);
  });
  if (!verification.verified) throw new ValidationError("the passkey was not accepted");
  const info = verification.registrationInfo;
  await db.transaction(async (tx) => {
    await tx.insert(passkeys).values({
      id: info.credential.id,
      userId: person.userId,
      name: args.name,
      publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      registeredSessionId: person.sessionId,
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      type: "passkey.registered",
      target: info.credential.id,
      detail: { name: args.name },
    });
  });
  return { id: info.credential.id, name: args.name };
}

export async function listPasskeys({ db, actor }: { db: Db; actor: Actor }) {
  const person = requirePerson(actor);
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, person.userId)).orderBy(passkeys.createdAt);
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    backedUp: p.backedUp,
  }));
}

export async function renamePasskey({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: { id: string; name: string };
}) {
  const person = requirePerson(actor);
  const name = z.string().trim().min(1).max(100).parse(input.name);
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, input.id), eq(passkeys.userId, person.userId)))
    .returning();
  if (!row) throw new NotFoundError("no such passkey");
  return { id: row.id, name };
}

/** How long another session may remove a newly announced passkey without confirming with a passkey. */
export const ENROLMENT_NOTICE_MS = 24 * 3600_000;

/**
 * May this session remove this passkey without a fresh confirmation? Only when it is the announced-enrolment
 * revoke: the passkey was registered in ANOTHER session, after this session began, less than a day ago. Anything
 * else (removing your own old key, a key registered here) needs a fresh passkey confirmation in this session.
 */
async function isAnnouncedEnrolment(
  db: DbOrTx,
  person: PersonActor,
  key: { createdAt: Date; registeredSessionId: string | null },
  now: Date,
): Promise<boolean> {
  if (!key.registeredSessionId || key.registeredSessionId === person.sessionId) return false;
  if (now.getTime() - key.createdAt.getTime() > ENROLMENT_NOTICE_MS) return false;
  const [mine] = await db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.id, person.sessionId));
  return !!mine && mine.createdAt.getTime() < key.createdAt.getTime();
}

export async function removePasskey({ db, actor, input }: { db: Db; actor: Actor; input: { id: string } }) {
  const person = requirePerson(actor);
  const [key] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, input.id), eq(passkeys.userId, person.userId)));
  if (!key) throw new NotFoundError("no such passkey");
  // Removing a passkey lowers how approvals are proven: confirm with a passkey, unless this is the revoke of a
  // passkey that another session just enrolled (the announcement).
  if (!(await isAnnouncedEnrolment(db, person, key, new Date())))
    await requireFreshPasskey(db, person, "removing a passkey");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, input.id), eq(passkeys.userId, person.userId)))
      .returning();
    if (!row) throw new NotFoundError("no such passkey");
    await recordAudit(tx, {
      actor: auditActor(actor),
      type: "passkey.removed",
      target: row.id,
      detail: { name: row.name },
    });
  });
  return { removed: input.id };
}

export async function hasPasskey(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return !!row;
}

export interface PasskeyEnrolmentNotice {
  id: string;
  name: string;
  registeredAt: string;
  /** The device of the session that registered it, and how that session signed in. */
  device: string | null;
  signIn: string | null;
}

/**
 * Passkeys registered in another of this person's sessions, after this session began, in the last day: the app
 * shows each until removed or a day passes, because an agent holding a login link could enrol the first passkey.
 */
export async function passkeyEnrolmentNotices(
  db: DbOrTx,
  person: PersonActor,
  now = new Date(),
): Promise<PasskeyEnrolmentNotice[]> {
  const rows = await db
    .select({ key: passkeys, userAgent: sessions.userAgent, signIn: sessions.signIn })
    .from(passkeys)
    .leftJoin(sessions, eq(sessions.id, passkeys.registeredSessionId))
    .where(
      and(eq(passkeys.userId, person.userId), gt(passkeys.createdAt, new Date(now.getTime() - ENROLMENT_NOTICE_MS))),
    );
  const out: PasskeyEnrolmentNotice[] = [];
  for (const { key, userAgent, signIn } of rows)
    if (await isAnnouncedEnrolment(db, person, key, now))
      out.push({
        id: key.id,
        name: key.name,
        registeredAt: key.createdAt.toISOString(),
        device: userAgent ? describeDevice(userAgent) : null,
        signIn: signIn ?? null,
      });
  return out;
}

/**
 * Options for an approval assertion: a fresh server-random challenge, single use, bound to this person and to the
 * card id, its content hash, the outcome and the scope. Asking again issues a new challenge; none is ever re-armed.
 */
export async function approvalAssertionOptions({ db, actor, input }: { db: Db; actor: Actor; input: ApprovalBinding }) {
  const person = requirePerson(actor);
  const mine = await db.select().from(passkeys).where(eq(passkeys.userId, person.userId));
  if (mine.length === 0)
    throw new ForbiddenError("register a passkey in Settings first: this workspace needs one to answer");
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    allowCredentials: mine.map((p) => ({ id: p.id, transports: p.transports })),
    userVerification: "preferred",
  });
  const binding: ApprovalBinding = {
    cardId: input.cardId,
    cardHash: input.cardHash,
    outcome: input.outcome,
    remember: input.remember,
  };
  await storeChallenge(db, options.challenge, "approval", person.userId, binding);
  return options;
}

export const PasskeyAssertion = z.looseObject({
  id: z.string().max(1000),
  response: z.looseObject({ clientDataJSON: z.string().max(10_000) }),
});
export type PasskeyAssertion = z.infer<typeof PasskeyAssertion>;

/**
 * Verifies an approval assertion BEFORE the card settles: its challenge must be one the server issued to this
 * person for exactly this card (id and current content hash), outcome and scope, unused and unexpired (it is
 * consumed here), and the credential must be theirs. A signature over another card, or an old one, fails.
 */
export async function verifyApprovalAssertion(
  db: DbOrTx,
  {
    actor,
    cardId,
    cardHash,
    outcome,
    remember,
    assertion,
  }: { actor: Actor; assertion: PasskeyAssertion } & ApprovalBinding,
): Promise<{ credentialId: string; name: string }> {
  const person = requirePerson(actor);
  const challenge = clientChallenge(assertion);
  const [issued] = await db
    .select({ data: webauthnChallenges.data, userId: webauthnChallenges.userId })
    .from(webauthnChallenges)
    .where(and(eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, "approval")));
  const bound = issued?.data as Partial<ApprovalBinding> | undefined;
  if (!issued || issued.userId !== person.userId)
    throw new ForbiddenError("the passkey signed a challenge the cockpit did not issue to you for this answer");
  if (
    bound?.cardId !== cardId ||
    bound.cardHash !== cardHash ||
    bound.outcome !== outcome ||
    bound.remember !== remember
  )
    throw new ForbiddenError("the passkey signed a different card, outcome or scope");
  const key = await verifyOwnAssertion(db, person.userId, assertion, challenge, "approval", new Date());
  return { credentialId: key.id, name: key.name };
}

/**
 * The one assertion check: the credential must be this person's, the challenge issued to them for this purpose and
 * unused (consumed here), and the signature valid for this relying party. Advances the signature counter.
 */
async function verifyOwnAssertion(
  db: DbOrTx,
  userId: string,
  assertion: PasskeyAssertion,
  challenge: string,
  purpose: "approval" | "stepup",
  now: Date,
) {
  const [key] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, assertion.id), eq(passkeys.userId, userId)));
  if (!key) throw new ForbiddenError("this passkey is not one of yours");
  await consumeChallenge(db, challenge, purpose, userId);
  const rp = relyingParty();
  const result = await verifyAuthenticationResponse({
    response: assertion as unknown as AuthenticationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: key.id,
      publicKey: Buffer.from(key.publicKey, "base64url"),
      counter: key.counter,
      transports: key.transports,
    },
    requireUserVerification: false,
  }).catch((error: Error) => {
    throw new ForbiddenError(`the passkey assertion was refused: ${error.message}`);
  });
  if (!result.verified) throw new ForbiddenError("the passkey assertion was refused");
  await db
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: now })
    .where(eq(passkeys.id, key.id));
  return key;
}

/** Sign-in with a passkey, step 1: options for a discoverable credential (any of the person's passkeys). */
export async function passkeyLoginOptions({ db }: { db: Db }) {
  const options = await generateAuthenticationOptions({ rpID: relyingParty().rpID, userVerification: "preferred" });
  await storeChallenge(db, options.challenge, "login", null);
  return options;
}

/** Sign-in with a passkey, step 2: the assertion names its credential; its owner (not removed) gets a session. */
export async function verifyPasskeyLogin(
  db: Db,
  { assertion }: { assertion: PasskeyAssertion },
): Promise<{ userId: string; passkey: { id: string; name: string } }> {
  const challenge = clientChallenge(assertion);
  const [key] = await db
    .select({ key: passkeys, removedAt: users.removedAt })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.id, assertion.id));
  if (!key || key.removedAt) throw new ForbiddenError("this passkey is not registered here");
  await consumeChallenge(db, challenge, "login", null);
  const rp = relyingParty();
  const result = await verifyAuthenticationResponse({
    response: assertion as unknown as AuthenticationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: key.key.id,
      publicKey: Buffer.from(key.key.publicKey, "base64url"),
      counter: key.key.counter,
      transports: key.key.transports,
    },
    requireUserVerification: false,
  }).catch((error: Error) => {
    throw new ForbiddenError(`the passkey assertion was refused: ${error.message}`);
  });
  if (!result.verified) throw new ForbiddenError("the passkey assertion was refused");
  await db
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(passkeys.id, key.key.id));
  return { userId: key.key.userId, passkey: { id: key.key.id, name: key.key.name } };
}

/** A step-up confirmation counts for five minutes. */
export const STEP_UP_TTL_MS = 5 * 60_000;

/** Step-up, step 1: a challenge for one of the caller's passkeys. */
export async function stepUpOptions({ db, actor }: { db: Db; actor: Actor }) {
  const person = requirePerson(actor);
  const mine = await db.select().from(passkeys).where(eq(passkeys.userId, person.userId));
  if (mine.length === 0) throw new ValidationError("you have no passkey to confirm with");
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    allowCredentials: mine.map((p) => ({ id: p.id, transports: p.transports })),
    userVerification: "preferred",
  });
  await storeChallenge(db, options.challenge, "stepup", person.userId);
  return options;
}

/** Step-up, step 2: a fresh assertion by one of the caller's passkeys marks this session as recently confirmed. */
export async function stepUp({ db, actor, input }: { db: Db; actor: Actor; input: { response: PasskeyAssertion } }) {
  const person = requirePerson(actor);
  const assertion = PasskeyAssertion.parse(input.response);
  const challenge = clientChallenge(assertion);
  const now = new Date();
  const key = await verifyOwnAssertion(db, person.userId, assertion, challenge, "stepup", now);
  await db.update(sessions).set({ steppedUpAt: now }).where(eq(sessions.id, person.sessionId));
  return { confirmedUntil: new Date(now.getTime() + STEP_UP_TTL_MS).toISOString(), passkey: key.name };
}

/**
 * Sensitive changes (roles, webhooks, tool-wide allow rules) need a passkey confirmation from the last
 * five minutes when the person has a passkey (ASVS 5.0 V7.5). Returns the passkey name used, if any.
 */
export async function requireFreshPasskey(db: DbOrTx, actor: Actor, what: string): Promise<void> {
  if (actor.kind !== "user") return;
  if (!(await hasPasskey(db, actor.userId))) return;
  const [row] = await db.select({ at: sessions.steppedUpAt }).from(sessions).where(eq(sessions.id, actor.sessionId));
  if (!row?.at || Date.now() - row.at.getTime() > STEP_UP_TTL_MS)
    throw new ForbiddenError(`${what} needs a fresh passkey confirmation`, { stepUp: true });
}
