import { z } from "zod";
import { hasHidden } from "@/lib/text/reveal";

/**
 * Names the cockpit itself shows as actors: the owner, the local CLI, agents (`agent:…`), the system and the
 * non-person settlers of a card (policy, expiry). A collaborator who picked one of them could sign an answer "by
 * owner" or an audit row "local-cli"; so they are reserved, compared without case, spaces or punctuation.
 */
const RESERVED = new Set([
  "owner",
  "localcli",
  "cli",
  "system",
  "policy",
  "expiry",
  "unknown",
  "cockpit",
  "agent",
  "you",
]);
const RESERVED_PREFIXES = ["agent:", "system:", "local-cli", "owner"];

const squash = (name: string) => name.normalize("NFKC").toLowerCase();

/** Why a display name is refused, or null when it may be used. */
export function displayNameProblem(name: string): string | null {
  if (hasHidden(name)) return "a name cannot contain hidden characters";
  if (/[()]/.test(name)) return "a name cannot contain parentheses (the cockpit shows the role there)";
  const plain = squash(name);
  const bare = plain.replace(/[\s_.\-'"`·:]+/g, "");
  if (RESERVED.has(bare) || RESERVED_PREFIXES.some((p) => plain.startsWith(p)) || bare.startsWith("agent"))
    return `"${name}" is reserved for the cockpit's own actors (owner, local-cli, agent:…, system); pick your own name`;
  return null;
}

/** A person's display name as they choose it at an invite: 1–100 characters, not a reserved name. */
export const DisplayName = z
  .string()
  .trim()
  .min(1, "give a display name")
  .max(100)
  .superRefine((name, ctx) => {
    const problem = displayNameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
