import { z } from "zod";

/** Command Code's hook stdin (reference §3.2): the fields the cockpit reads; the rest passes through. */
export const CommandCodeHookPayload = z.looseObject({
  hook_event_name: z.string().min(1),
  session_id: z.string().min(1).max(300),
  cwd: z.string().max(4096).optional(),
  /** `standard` | `auto-accept` | `plan`. */
  permission_mode: z.string().max(50).optional(),
  tool_use_id: z.string().max(300).optional(),
  tool_name: z.string().max(300).optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
});
export type CommandCodeHookPayload = z.infer<typeof CommandCodeHookPayload>;

/** `{}` is "no opinion" (empty stdout): Command Code's own flow decides. */
export type CommandCodeHookOutput =
  | Record<string, never>
  | {
      systemMessage?: string;
      hookSpecificOutput: {
        hookEventName: "PreToolUse";
        permissionDecision: "allow" | "deny";
        permissionDecisionReason: string;
      };
    };

export const allowOutput = (reason: string): CommandCodeHookOutput => ({
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: reason },
});

/** The reason goes back to the model as the tool result; the system message tells the person. */
export const denyOutput = (reason: string): CommandCodeHookOutput => ({
  systemMessage: `permissions cockpit: ${reason}`,
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason },
});
