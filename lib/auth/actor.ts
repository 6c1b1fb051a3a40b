/** Roles in increasing power; the owner can do everything. */
export const ROLES = ["viewer", "approver", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** Who is asking: a signed-in person, the local CLI (owner powers), or an agent token. */
export type Actor =
  | { kind: "user"; userId: string; name: string; role: Role; sessionId: string }
  | { kind: "local"; role: "owner"; name: "local-cli" }
  | { kind: "agent"; tokenId: string; workspaceId: string; name: string };

export function hasRole(actor: Actor, needed: Role): boolean {
  if (actor.kind === "agent") return false;
  return ROLES.indexOf(actor.role) >= ROLES.indexOf(needed);
}

/** A short label for audit rows and "settled by X" messages; never a secret. */
export function actorLabel(actor: Actor): string {
  if (actor.kind === "user") return actor.name;
  if (actor.kind === "local") return "local-cli";
  return `agent:${actor.name}`;
}

/** Why a credential that is not a person's session may not answer cards or write allow rules. */
export const PERSON_ONLY =
  "needs a person signed in on the web or phone (or a notification's action); the local CLI credential and agent tokens cannot do it";

/** Answers and allow rules come only from a person's session: the CLI credential and agent tokens are refused. */
export function isPerson(actor: Actor): actor is Extract<Actor, { kind: "user" }> {
  return actor.kind === "user";
}
