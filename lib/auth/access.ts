import { ALL_WORKSPACES, PERSON_ONLY, ROLES, type Actor, type Role, type WorkspaceRole } from "./actor";
import { ForbiddenError } from "@/lib/errors";

/**
 * Every permission a verb can check, with the role it needs in the workspace it acts on (not a rule's action:
 * that is lib/policy's `Action`: allow, ask or deny). Permissions on
 * server-wide things (workspace registry, absence timeout, private webhook hosts) are checked with
 * workspace `null`: only a grant on all workspaces (or the owner) counts there.
 */
export const PERMISSIONS = {
  "workspace.view": "viewer",
  "card.view": "viewer",
  "entry.view": "viewer",
  "audit.view": "viewer",
  /** Checked with workspace null: the chain spans every workspace, so only the owner or an admin of all. */
  "audit.verify": "admin",
  "card.answer": "approver",
  "entry.revoke": "admin",
  "entry.narrow": "admin",
  "entry.add": "admin",
  /** The CLI reports a store edit it made itself, for its audit row (lib/entries/record-cli-write.ts): writes no file. */
  "entry.record_cli_write": "owner",
  "session.release": "admin",
  "webhook.manage": "admin",
  "agent_token.manage": "admin",
  "collaborator.manage": "admin",
  "settings.manage": "admin",
  "workspace.manage": "admin",
  "workspace.settings": "admin",
  /** `cockpit login-link` with the local credential (not the developer credential): the owner's own sign-in. */
  "owner.login_link": "owner",
  "owner.pair": "owner",
} as const satisfies Record<string, Role>;
export type Permission = keyof typeof PERMISSIONS;

/**
 * The doors: permissions that yield a session, a person, a credential, a remembered allow or an answer, or that
 * change who is asked or how an answer is proven. Only a person's own web session may take them: the local CLI
 * credential and agent tokens are readable by anything running as the developer's OS user (an agent's
 * `node -e` included), so they never reach an approval. `route({ person: true })` guards the same class at the
 * HTTP edge, and app/api/person-only-routes.test.ts fails when a route reaches one of these without that guard.
 */
export const PERSON_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  "card.answer",
  "entry.add",
  "entry.narrow",
  "owner.pair",
  "collaborator.manage",
  "workspace.settings",
  "webhook.manage",
]);

/** Permissions an agent token holds, only in its own workspace. */
export const AGENT_PERMISSIONS = new Set<string>(["card.admit", "card.wait", "card.abort", "session.user_message"]);
export type AgentPermission = "card.admit" | "card.wait" | "card.abort" | "session.user_message";

/** What `can()` answers (not the engine's `Decision` on a tool call, lib/policy). */
export type AccessDecision = { ok: true; role: Role } | { ok: false; needed: Role | "agent"; reason: string };

const rank = (r: Role) => ROLES.indexOf(r);

/**
 * The role the actor holds in one workspace (`null` = server-wide: only "all" grants count):
 * the owner and the local CLI are owner everywhere, an agent holds no person role.
 */
export function roleIn(actor: Actor, workspaceId: string | null): Role | null {
  if (actor.kind === "agent") return null;
  if (actor.kind === "notification") return workspaceId === actor.workspaceId ? "approver" : null;
  if (actor.kind === "local" || actor.owner) return "owner";
  let best: WorkspaceRole | null = null;
  for (const g of actor.grants) {
    const applies = g.workspace === ALL_WORKSPACES || (workspaceId !== null && g.workspace === workspaceId);
    if (applies && (best === null || rank(g.role) > rank(best))) best = g.role;
  }
  return best;
}

function where(workspaceId: string | null): string {
  return workspaceId === null ? "on all workspaces" : `in workspace ${workspaceId}`;
}

/** Does this actor hold this permission on this workspace? One pure function; every verb asks it. */
export function can(actor: Actor, action: Permission | AgentPermission, workspaceId: string | null): AccessDecision {
  if (AGENT_PERMISSIONS.has(action)) {
    if (actor.kind !== "agent") {
      // The owner's CLI may stand in for an agent (tests, scripts); people may not.
      if (actor.kind === "local") return { ok: true, role: "owner" };
      return { ok: false, needed: "agent", reason: "only an agent token can do this" };
    }
    if (workspaceId !== actor.workspaceId)
      return { ok: false, needed: "agent", reason: "this agent token belongs to another workspace" };
    return { ok: true, role: "viewer" };
  }
  const needed = PERMISSIONS[action as Permission];
  if (actor.kind === "agent") return { ok: false, needed, reason: "agent tokens cannot do this" };
  if (actor.kind === "local" && PERSON_PERMISSIONS.has(action as Permission))
    return { ok: false, needed, reason: `this ${PERSON_ONLY}` };
  if (actor.kind === "notification" && action !== "card.answer" && action !== "card.view")
    return { ok: false, needed, reason: "a notification action only answers its card" };
  const held = roleIn(actor, workspaceId);
  if (held !== null && rank(held) >= rank(needed)) return { ok: true, role: held };
  const reason =
    needed === "owner"
      ? "this needs the owner"
      : `this needs the ${needed} role ${where(workspaceId)}${held ? ` (you are ${held})` : ""}`;
  return { ok: false, needed, reason };
}

/** The workspaces whose contents the actor may see: "all", or a list (possibly empty). */
export function visibleWorkspaces(actor: Actor): "all" | string[] {
  if (actor.kind === "agent" || actor.kind === "notification") return [actor.workspaceId];
  if (actor.kind === "local" || actor.owner) return "all";
  if (actor.grants.some((g) => g.workspace === ALL_WORKSPACES)) return "all";
  return [...new Set(actor.grants.map((g) => g.workspace))];
}

export function seesWorkspace(actor: Actor, workspaceId: string): boolean {
  const visible = visibleWorkspaces(actor);
  return visible === "all" || visible.includes(workspaceId);
}

/**
 * May `actor` manage a person holding `targetGrants` (change roles, remove, end sessions)? The owner
 * is never managed by anyone else; otherwise the actor must be admin wherever the target has a grant.
 */
export function canManagePerson(
  actor: Actor,
  target: { owner: boolean; grants: { workspace: string; role: WorkspaceRole }[] },
): AccessDecision {
  if (target.owner) return { ok: false, needed: "owner", reason: "the owner cannot be changed or removed" };
  const scopes = target.grants.length ? target.grants.map((g) => g.workspace) : [null];
  let role: Role = "owner";
  for (const ws of scopes) {
    const d = can(actor, "collaborator.manage", ws === ALL_WORKSPACES ? null : ws);
    if (!d.ok) return d;
    if (rank(d.role) < rank(role)) role = d.role;
  }
  return { ok: true, role };
}

/** `can()` for verbs: returns the role held, or throws 403 with the reason naming the role needed. */
export function requireCan(actor: Actor, action: Permission | AgentPermission, workspaceId: string | null): Role {
  const decision = can(actor, action, workspaceId);
  if (!decision.ok) throw new ForbiddenError(decision.reason, { needed: decision.needed });
  return decision.role;
}
