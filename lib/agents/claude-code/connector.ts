/** Claude Code's hook protocol: `.claude/settings.local.json` hooks, PermissionRequest cards, tool-use audit. */
import type { AgentConnector } from "../types";
import { askPerson } from "../shared/ask-person";
import { addHooks, cockpitHandler, editClaudeSettings, HOOK_EVENTS, removeHooks } from "./connect";
import {
  allowOutput,
  ClaudeHookPayload,
  denyOutput,
  originPathOf,
  suggestedRules,
  type ClaudeHookOutput,
} from "./hook";
import { info } from "./info";

export const connector: AgentConnector<ClaudeHookPayload> = {
  payload: ClaudeHookPayload,
  http: true,
  user: false,
  async connect(target) {
    const handler = cockpitHandler({ url: target.url, http: Boolean(target.http), cliPath: target.cliPath });
    // --audit-http: the audit-only tool events as HTTP hooks (one local request each, no process start).
    const audit = target.auditHttp ? cockpitHandler({ url: target.url, http: true, cliPath: target.cliPath }) : handler;
    const result = await editClaudeSettings(target.workspace, (text) => addHooks(text, handler, undefined, audit));
    return { ...result, events: [...HOOK_EVENTS] };
  },
  async disconnect(target) {
    const result = await editClaudeSettings(target.workspace, (text) => removeHooks(text));
    return { ...result, events: [...HOOK_EVENTS] };
  },
  async handle(payload, ctx): Promise<ClaudeHookOutput | null> {
    const event = payload.hook_event_name;
    if (event === "UserPromptSubmit") {
      await ctx.port.userMessage(payload.session_id);
      return null;
    }
    if (event === "PreToolUse" || event === "PostToolUse") {
      await ctx.port.toolUse(info.id, {
        phase: event === "PreToolUse" ? "pre" : "post",
        sessionId: payload.session_id,
        tool: payload.tool_name ?? null,
        input: payload.tool_input ?? {},
        toolUseId: typeof payload.tool_use_id === "string" ? payload.tool_use_id.slice(0, 300) : null,
        cwd: payload.cwd ?? null,
      });
      return null;
    }
    if (event !== "PermissionRequest" || !payload.tool_name) return null;
    const answer = await askPerson(
      {
        agent: info.id,
        sessionId: payload.session_id,
        originPath: originPathOf(payload),
        cwd: payload.cwd,
        mode: payload.permission_mode,
        tool: payload.tool_name,
        input: payload.tool_input ?? {},
        // Claude Code fires PermissionRequest only when it decided to ask: its own rules never turn that into allow.
        agentAsked: true,
        suggestions: suggestedRules(payload),
      },
      ctx,
    );
    if (answer.answer === "none") return null;
    if (answer.answer === "allow") return allowOutput();
    return denyOutput(answer.message || `Denied in the permissions cockpit${answer.by ? ` by ${answer.by}` : ""}.`);
  },
};
