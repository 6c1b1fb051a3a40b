import type { Actor } from "@/lib/auth/actor";
import { actorLabel } from "@/lib/auth/actor";
import type { AuditActor } from "./events";

/** The audit view of a request's actor, plus how it reached us. */
export function auditActor(actor: Actor, via: { channel?: string | null; address?: string | null } = {}): AuditActor {
  const label = actorLabel(actor);
  if (actor.kind === "user")
    return { type: "user", label, id: actor.userId, role: actor.role, session: actor.sessionId, ...via };
  if (actor.kind === "local") return { type: "local", label, id: "local-cli", role: "owner", channel: "cli", ...via };
  return { type: "agent", label, id: actor.tokenId, channel: "agent", ...via };
}

/** For verbs that still receive only a display name. */
export function namedActor(name: string, via: { channel?: string | null } = {}): AuditActor {
  if (name === "local-cli") return { type: "local", label: name, id: name, role: "owner", channel: "cli", ...via };
  if (name === "system" || name.startsWith("system:")) return { type: "system", label: name, ...via };
  if (name.startsWith("agent:")) return { type: "agent", label: name, channel: "agent", ...via };
  return { type: "user", label: name, ...via };
}

export const SYSTEM_ACTOR: AuditActor = { type: "system", label: "system" };
