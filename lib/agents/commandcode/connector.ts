/** Command Code's hook protocol: `.commandcode/settings.json` PreToolUse/PostToolUse command hooks (reference §3). */
import { storeEnv } from "@/lib/config/env";
import { storePaths } from "@/lib/stores/store-paths";
import { askPerson } from "../shared/ask-person";
import type { AgentConnector } from "../types";
import { addHooks, commandCodeHandler, editCommandCodeSettings, HOOK_EVENTS, removeHooks } from "./connect";
import { allowOutput, CommandCodeHookPayload, denyOutput, type CommandCodeHookOutput } from "./hook";
import { info } from "./info";

/**
 * PreToolUse: Command Code's own rules and mode decide first (the seed 002 engine over its stores). What it would
 * allow gets no opinion (it reaches the same allow itself), what its rules deny is denied with the reason, and what
 * it would ask about becomes a card whose answer is returned. Never an allow by default.
 */
async function preToolUse(
  payload: CommandCodeHookPayload,
  ctx: Parameters<AgentConnector["handle"]>[1],
): Promise<CommandCodeHookOutput | null> {
  const workspace = process.env.COMMANDCODE_PROJECT_DIR || payload.cwd;
  if (!workspace || !payload.tool_name) return null;
  const call = { tool: payload.tool_name, input: payload.tool_input ?? {} };
  const { engine } = await import("./engine");
  const snapshot = await engine.load({ paths: storePaths(storeEnv(), workspace) });
  const { decision } = snapshot.decide({ call, mode: payload.permission_mode, cwd: payload.cwd });
  if (decision.decision === "allow") return null;
  if (decision.decision === "deny") return denyOutput(decision.reason);
  const answer = await askPerson(
    {
      agent: info.id,
      sessionId: payload.session_id,
      cwd: payload.cwd,
      mode: payload.permission_mode,
      tool: call.tool,
      input: call.input,
    },
    ctx,
  );
  if (answer.answer === "none") return null;
  if (answer.answer === "allow") return allowOutput("Allowed in the permissions cockpit.");
  return denyOutput(answer.message || `Denied in the permissions cockpit${answer.by ? ` by ${answer.by}` : ""}.`);
}

export const connector: AgentConnector<CommandCodeHookPayload> = {
  payload: CommandCodeHookPayload,
  http: false,
  user: false,
  async connect(target) {
    const handler = commandCodeHandler({ url: target.url, cliPath: target.cliPath });
    const result = await editCommandCodeSettings(target.workspace, (text) => addHooks(text, handler));
    return {
      ...result,
      events: [...HOOK_EVENTS],
      next:
        `Start ${info.label} with an agent token in its environment:\n  export COCKPIT_TOKEN=...   (create one: npx cockpit agent-token create --workspace ${target.workspace})\n` +
        `${info.label}'s docs do not say a hook's allow skips its own prompt: after an allow in the cockpit it may still ask.\n`,
    };
  },
  async disconnect(target) {
    const result = await editCommandCodeSettings(target.workspace, (text) => removeHooks(text));
    return { ...result, events: [...HOOK_EVENTS] };
  },
  async handle(payload, ctx) {
    if (payload.hook_event_name === "PreToolUse") return preToolUse(payload, ctx);
    if (payload.hook_event_name === "PostToolUse" && payload.tool_name) {
      await ctx.port.toolUse(info.id, {
        phase: "post",
        sessionId: payload.session_id,
        tool: payload.tool_name,
        input: payload.tool_input ?? {},
        toolUseId: payload.tool_use_id ?? null,
        cwd: payload.cwd ?? null,
      });
    }
    return null;
  },
};
