import type { Actor } from "./actor";

/** Who acted, for audit detail: the person and their role there, the session/device, the server-derived channel. */
export function attribution(actor: Actor, role?: string | null): Record<string, unknown> {
  if (actor.kind === "user")
    return {
      by: { userId: actor.userId, name: actor.name, ...(role ? { role } : actor.owner ? { role: "owner" } : {}) },
      session: actor.sessionId,
      device: actor.device,
      channel: actor.channel,
      signIn: actor.signIn,
    };
  if (actor.kind === "local") return { by: { name: "local-cli", role: "owner" }, channel: "cli" };
  if (actor.kind === "notification") return { by: { name: actor.name }, channel: "notification" };
  return { by: { agentToken: actor.tokenId, name: actor.name }, channel: "agent" };
}
