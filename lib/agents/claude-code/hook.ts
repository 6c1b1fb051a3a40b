// zod/mini: the hook bridge (dist/cli/hook.mjs, started on every tool call) bundles it in a few kilobytes.
import * as z from "zod/mini";
import type { CardSettlement, CardStatus } from "@/db/schema/cards";

const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));

/**
 * The fields of a Claude Code hook payload the cockpit reads; everything else passes through untouched.
 * Route handlers wrap the same shape in full zod (`z.looseObject(claudeHookShape)`).
 */
export const claudeHookShape = {
  hook_event_name: z.string().check(z.minLength(1)),
  session_id: text(1, 300),
  cwd: z.optional(text(0, 4096)),
  permission_mode: z.optional(text(0, 50)),
  tool_name: z.optional(text(0, 300)),
  tool_input: z.optional(z.record(z.string(), z.unknown())),
  agent_id: z.optional(text(0, 300)),
  agent_type: z.optional(text(0, 200)),
};
export const ClaudeHookPayload = z.looseObject(claudeHookShape);
export type ClaudeHookPayload = z.infer<typeof ClaudeHookPayload>;

const Suggestion = z.looseObject({
  type: z.string(),
  behavior: z.optional(z.string()),
  rules: z.optional(z.array(z.looseObject({ toolName: text(1, 300), ruleContent: z.optional(text(0, 1000)) }))),
});

/**
 * The allow rules Claude Code offers to remember (`permission_suggestions` entries of type `addRules`, behavior
 * `allow`), as rule texts, one list per suggestion. Directory and mode suggestions are not rules: left out.
 * Malformed entries are skipped; the card's chooser filters what is left through its own bounds and the lint.
 */
export function suggestedRules(payload: Record<string, unknown>): string[][] {
  const raw = payload.permission_suggestions;
  if (!Array.isArray(raw)) return [];
  const out: string[][] = [];
  for (const item of raw.slice(0, 10)) {
    const s = Suggestion.safeParse(item);
    if (!s.success || s.data.type !== "addRules" || s.data.behavior !== "allow" || !s.data.rules?.length) continue;
    out.push(s.data.rules.slice(0, 20).map((r) => (r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName)));
  }
  return out;
}

/** Subagents share the parent's session id; the agent type names the branch of the tree. */
export function originPathOf(payload: ClaudeHookPayload): string {
  if (!payload.agent_id && !payload.agent_type) return "/root";
  const name = (payload.agent_type ?? payload.agent_id ?? "agent").replace(/[^\w.-]+/g, "-");
  return `/root/${name}`;
}

export type ClaudeHookOutput =
  | Record<string, never>
  | {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest";
        decision: { behavior: "allow" } | { behavior: "deny"; message: string };
      };
    };

export const allowOutput = (): ClaudeHookOutput => ({
  hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
});
export const denyOutput = (message: string): ClaudeHookOutput => ({
  hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message } },
});

/**
 * Claude Code's hook JSON for a card outcome. Pending (timeout) and aborted give `{}`: no decision,
 * so the terminal prompt decides. Never an allow by default.
 */
export function hookOutputFor(outcome: {
  status: CardStatus;
  settlement: (CardSettlement & { by?: string | null }) | null;
}): ClaudeHookOutput {
  const s = outcome.settlement;
  if (outcome.status === "pending" || outcome.status === "aborted" || !s) return {};
  if (s.outcome === "allow" && (outcome.status === "allowed" || outcome.status === "coalesced")) return allowOutput();
  return denyOutput(s.message || `Denied in the permissions cockpit${s.by ? ` by ${s.by}` : ""}.`);
}
