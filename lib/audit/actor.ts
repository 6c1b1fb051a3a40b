import { roleIn } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";
import { actorLabel, channelOf, topRole } from "@/lib/auth/actor";
import type { AuditActor } from "./events";

/** How an action reached us and what it was about, as the server knows it (never as the request claims). */
export interface AuditVia {
  /** Overrides the actor's own channel (e.g. "ntfy" for a notification button). */
  channel?: string | null;
  address?: string | null;
  /** The workspace acted on: the role recorded is the one held there at that moment (null = server-wide). */
  workspaceId?: string | null;
  /** The role the access check returned, when the caller has it. */
  role?: string | null;
  /** The passkey that confirmed the action. */
  passkey?: { id: string; name: string } | null;
}

/**
 * The audit view of a request's actor: the person, their role at that moment, the session and device,
 * the server-derived channel, and the confirming passkey.
 */
export function auditActor(actor: Actor, via: AuditVia = {}): AuditActor {
  const { workspaceId, role: givenRole, passkey, ...where } = via;
  const label = actorLabel(actor);
  const role = givenRole ?? (workspaceId !== undefined ? roleIn(actor, workspaceId) : topRole(actor));
  const extra = { ...(passkey ? { passkey } : {}) };
  if (actor.kind === "user")
    return {
      type: "user",
      label,
      id: actor.userId,
      role,
      session: actor.sessionId,
      device: actor.device,
      signIn: actor.signIn,
      ...extra,
      channel: where.channel ?? channelOf(actor),
      address: where.address,
    };
  if (actor.kind === "local")
    return {
      type: "local",
      label,
      id: "local-cli",
      role: "owner",
      ...extra,
      channel: where.channel ?? "cli",
      address: where.address,
    };
  if (actor.kind === "notification")
    return {
      type: "notification",
      label,
      id: actor.cardId,
      role,
      ...extra,
      channel: where.channel ?? channelOf(actor),
      address: where.address,
    };
  return { type: "agent", label, id: actor.tokenId, channel: where.channel ?? "agent", address: where.address };
}

/** For verbs that still receive only a display name. */
export function namedActor(name: string, via: { channel?: string | null } = {}): AuditActor {
  if (name === "local-cli") return { type: "local", label: name, id: name, role: "owner", channel: "cli", ...via };
  if (name === "system" || name.startsWith("system:")) return { type: "system", label: name, ...via };
  if (name.startsWith("agent:")) return { type: "agent", label: name, channel: "agent", ...via };
  return { type: "user", label: name, ...via };
}

export const SYSTEM_ACTOR: AuditActor = { type: "system", label: "system" };
