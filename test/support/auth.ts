/** Test fixtures: signed-in sessions as the browser sends them, and actors (the owner, collaborators with grants). */
import type { Db } from "@/db/client";
import { PLAIN_COOKIE } from "@/lib/auth/cookies";
import type { Grant, LocalActor, PersonActor } from "@/lib/auth/actor";
import { createOwnerLoginLink, redeemLoginLink } from "@/lib/auth/login-links";

/** The `cockpit` CLI with the data folder's local credential (the owner's powers, not a person). */
export const LOCAL_CLI: LocalActor = { kind: "local", name: "local-cli" };

/** A signed-in owner session (cookie + same-origin Origin). */
export async function personHeaders(db: Db, origin = "http://localhost:3000"): Promise<Record<string, string>> {
  const link = await createOwnerLoginLink({ db: db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
  const session = await redeemLoginLink(db, { token: link.token, sessionTtlHours: 1 });
  return { cookie: `${PLAIN_COOKIE}=${session.sessionToken}`, origin };
}

export function personActor(overrides: Partial<PersonActor> & { grants?: Grant[] } = {}): PersonActor {
  return {
    kind: "user",
    userId: "u-test",
    name: "tess",
    owner: false,
    grants: [],
    sessionId: "s-test",
    signIn: "link",
    device: null,
    channel: "web",
    ...overrides,
  };
}

export const ownerActor = (overrides: Partial<PersonActor> = {}): PersonActor =>
  personActor({ userId: "u-owner", name: "owner", owner: true, ...overrides });

/** A collaborator holding `role` on every workspace. */
export const roleEverywhere = (role: Grant["role"], overrides: Partial<PersonActor> = {}): PersonActor =>
  personActor({ grants: [{ workspace: "all", role }], ...overrides });
