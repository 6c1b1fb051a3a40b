/**
 * Cursor's hook protocol behind the agent interface: `.cursor/hooks.json` (or `~/.cursor/hooks.json` with `--user`),
 * `beforeShellExecution` / `beforeMCPExecution` / `beforeReadFile` answered `{"permission": …}`, the after* events into
 * the audit log. Cursor runs the before* hooks for every action, so what Cursor's own entries settle is answered at
 * once (never more permissive than Cursor: an allow only where the documented matching allows); the rest becomes a
 * card. No answer, an unreachable cockpit or any error answers `ask` (a read: deny) — never allow.
 */
import os from "node:os";
import { cockpitProtectedPaths } from "@/lib/stores/policy-context";
import { askPerson } from "../shared/ask-person";
import { loadShellParser } from "../shared/shell-parser";
import type { AgentConnector, CardRequest } from "../types";
import { cursorEnv } from "./agent-engine";
import { decideCursor } from "./decide";
import {
  askOutput,
  callOf,
  cardRequest,
  CursorHookPayload,
  fallbackOutput,
  isGate,
  verdictFor,
  workspaceOf,
  type CursorHookOutput,
  type GatePayload,
} from "./hook";
import { HOOK_EVENT_NAMES, installHooks, removeHooks } from "./hooks-config";
import { info } from "./info";
import { loadCursorContext, loadMcpServers } from "./io/context";
import { editHooksFile } from "./io/write";
import { projectHooksPath, userHooksPath } from "./paths";

const denied = (message: string): CursorHookOutput => ({
  permission: "deny",
  user_message: message,
  agent_message: `${message}. Do not retry it in another form; ask the user.`,
});

function toolUseOf(p: CursorHookPayload) {
  const tool = p.hook_event_name.includes("Shell")
    ? "Shell"
    : p.hook_event_name.includes("MCP")
      ? "Mcp"
      : p.hook_event_name === "afterFileEdit"
        ? "Write"
        : "Read";
  const input: Record<string, unknown> =
    "command" in p && p.hook_event_name.includes("Shell")
      ? { command: p.command }
      : "tool_name" in p
        ? { tool: p.tool_name }
        : "file_path" in p
          ? { path: p.file_path }
          : {};
  return { tool, input, cwd: "cwd" in p && typeof p.cwd === "string" && p.cwd ? p.cwd : null };
}

async function gate(p: GatePayload, ctx: Parameters<AgentConnector["handle"]>[1]): Promise<CursorHookOutput> {
  const home = process.env.HOME || os.homedir();
  const where = workspaceOf(p, process.cwd());
  const [shell, servers] = await Promise.all([loadShellParser(), loadMcpServers(where.workspace, home)]);
  const call = callOf(p, servers);
  const context = await loadCursorContext({
    home,
    env: cursorEnv(home),
    workspace: where.workspace,
    cwd: where.cwd,
    shell,
    protectedPaths: cockpitProtectedPaths(),
  });
  const decision = decideCursor(call, context);
  const verdict = verdictFor(p, decision);
  const use = toolUseOf(p);
  if (verdict.kind === "answer") {
    const outcome = "permission" in verdict.output ? verdict.output.permission : undefined;
    await ctx.port
      .toolUse(info.id, {
        phase: "pre",
        sessionId: p.conversation_id,
        tool: use.tool,
        input: use.input,
        cwd: use.cwd,
        ...(outcome ? { outcome } : {}),
        reason: `${decision.reason}${decision.inferred ? " (inferred)" : ""}`.slice(0, 2000),
      })
      .catch(() => undefined);
    return verdict.output;
  }
  const request = cardRequest(p, call, decision);
  const card: CardRequest = {
    agent: info.id,
    sessionId: request.sessionId,
    originPath: request.originPath,
    ...(request.cwd ? { cwd: request.cwd } : {}),
    tool: request.tool,
    input: request.input,
    reason: request.reason,
    agentAsked: false,
  };
  const answer = await askPerson(card, ctx);
  if (answer.answer === "allow") return { permission: "allow" };
  if (answer.answer === "deny")
    return denied(answer.message || `Denied in the permissions cockpit${answer.by ? ` by ${answer.by}` : ""}`);
  return askOutput("The permissions cockpit had no answer; Cursor asks.");
}

export const connector: AgentConnector<CursorHookPayload> = {
  payload: CursorHookPayload,
  http: false,
  user: true,
  async connect(target) {
    const file = target.user ? userHooksPath(target.home) : projectHooksPath(target.workspace);
    const root = target.user ? target.home : target.workspace;
    const result = await editHooksFile(file, root, (text) =>
      installHooks(text, { cliPath: target.cliPath, url: target.url }, file),
    );
    return { ...result, events: [...HOOK_EVENT_NAMES] };
  },
  async disconnect(target) {
    const file = target.user ? userHooksPath(target.home) : projectHooksPath(target.workspace);
    const root = target.user ? target.home : target.workspace;
    const result = await editHooksFile(file, root, (text) => removeHooks(text, file));
    return { ...result, events: [...HOOK_EVENT_NAMES] };
  },
  async handle(payload, ctx) {
    if (!isGate(payload)) {
      const use = toolUseOf(payload);
      await ctx.port.toolUse(info.id, {
        phase: "post",
        sessionId: payload.conversation_id,
        tool: use.tool,
        input: use.input,
        cwd: use.cwd,
      });
      return null;
    }
    try {
      return await gate(payload, ctx);
    } catch (error) {
      return fallbackOutput(payload.hook_event_name, `cockpit unreachable: ${(error as Error).message}`);
    }
  },
  fallback(raw, why) {
    const event = (raw as { hook_event_name?: unknown } | null)?.hook_event_name;
    const out = fallbackOutput(typeof event === "string" ? event : undefined, why);
    return Object.keys(out).length ? out : null;
  },
};
