/** Roles a collaborator holds per workspace, in increasing power. */
export const WORKSPACE_ROLES = ["viewer", "approver", "admin"] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Access levels a route can ask for: a workspace role held somewhere, or the owner. */
export const ROLES = [...WORKSPACE_ROLES, "owner"] as const;
export type Role = (typeof ROLES)[number];

/** A grant's workspace: one workspace id, or every workspace (present and future). */
export const ALL_WORKSPACES = "all";
export interface Grant {
  workspace: string;
  role: WorkspaceRole;
}

/** How a request reached the cockpit; derived by the server, never declared by the request. */
export type Channel = "web" | "phone" | "cli" | "notification" | "agent";

/** A signed-in person: the owner (admin everywhere) or a collaborator with grants per workspace. */
export interface PersonActor {
  kind: "user";
  userId: string;
  name: string;
  owner: boolean;
  grants: Grant[];
  sessionId: string;
  /** How this session signed in: link, invite, pair, passkey. */
  signIn: string;
  device: string | null;
  channel: "web" | "phone";
}
/** The `cockpit` CLI on the server's machine with the local credential: the owner's powers. */
export interface LocalActor {
  kind: "local";
  name: "local-cli";
  /** The developer credential (docs/deploy.md): the CLI's rights, but it mints no login link. */
  developer?: true;
}
/** An agent token bound to one workspace. */
export interface AgentActor {
  kind: "agent";
  tokenId: string;
  workspaceId: string;
  name: string;
}
/** A notification's single-use action token (ntfy Approve/Deny): answers one card in one workspace. */
export interface NotificationActor {
  kind: "notification";
  name: string;
  workspaceId: string;
  cardId: string;
}
/** Who is asking. Public routes have no actor at all. */
export type Actor = PersonActor | LocalActor | AgentActor | NotificationActor;
export type HumanActor = PersonActor | LocalActor;

const rank = (r: Role) => ROLES.indexOf(r);

/** The strongest role this actor holds anywhere (owner for the owner and the local CLI); null for agents. */
export function topRole(actor: Actor): Role | null {
  if (actor.kind === "agent") return null;
  if (actor.kind === "notification") return "approver";
  if (actor.kind === "local" || actor.owner) return "owner";
  let best: Role | null = null;
  for (const g of actor.grants) if (best === null || rank(g.role) > rank(best)) best = g.role;
  return best;
}

/** True when the actor holds at least `needed` in some workspace (the route's coarse gate; verbs check per workspace). */
export function hasRole(actor: Actor, needed: Role): boolean {
  const top = topRole(actor);
  return top !== null && rank(top) >= rank(needed);
}

/** A short label for audit rows and "settled by X" messages; never a secret. */
export function actorLabel(actor: Actor): string {
  if (actor.kind === "user") return actor.name;
  if (actor.kind === "local") return "local-cli";
  if (actor.kind === "notification") return actor.name;
  return `agent:${actor.name}`;
}

/** The channel the server derived for this actor. */
export function channelOf(actor: Actor): Channel {
  if (actor.kind === "user") return actor.channel;
  if (actor.kind === "local") return "cli";
  if (actor.kind === "notification") return "notification";
  return "agent";
}

/** Why a credential that is not a person's session may not answer cards or write allow rules. */
export const PERSON_ONLY =
  "needs a person signed in on the web or phone (or a notification's action); the local CLI credential and agent tokens cannot do it";

/** Answers and allow rules come only from a person's session: the CLI credential and agent tokens are refused. */
export function isPerson(actor: Actor): actor is Extract<Actor, { kind: "user" }> {
  return actor.kind === "user";
}

/** Who may answer a card: a person's session or a notification's single-use action (never the CLI or an agent). */
export function answersAsPerson(actor: Actor): actor is PersonActor | NotificationActor {
  return actor.kind === "user" || actor.kind === "notification";
}
