/** Actors for tests: the owner, and collaborators with given grants. */
import type { Grant, PersonActor } from "./actor";

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
