import {
  allowOutput,
  CommandCodeHookPayload,
  denyOutput,
  hookOutputFor,
  type CommandCodeHookOutput,
} from "@/lib/agents/commandcode/hook";
import { decideWith, loadPolicy } from "@/lib/policy-runtime/snapshot";
import { storePathsFromFlags } from "../store-support";

type Api = (
  method: string,
  apiPath: string,
  body?: unknown,
  timeoutMs?: number,
  cancel?: AbortSignal,
) => Promise<{ status: number; json: unknown }>;
type CardAnswer = Parameters<typeof hookOutputFor>[0];

/** What `cockpit hook commandcode` borrows from the Claude Code bridge (HTTP client, stdin, long-poll). */
export interface HookDeps {
  api: (base: string, token: string) => Api;
  cockpitUrl: () => string;
  readStdin: () => Promise<string>;
  waitForCard: (call: Api, id: string, waitSeconds: number, stopping: AbortSignal) => Promise<CardAnswer | null>;
}

/**
 * PreToolUse: Command Code's own rules and mode decide first (the seed 002 engine over its stores). An allow is
 * "no opinion" (Command Code reaches the same allow itself), a deny is returned with its reason, and a call it
 * would ask about becomes a card whose answer is printed. Any failure prints nothing.
 */
async function preToolUse(
  call: Api,
  payload: CommandCodeHookPayload,
  waitSeconds: number,
  stopping: AbortSignal,
  waitForCard: HookDeps["waitForCard"],
): Promise<CommandCodeHookOutput> {
  const workspace = process.env.COMMANDCODE_PROJECT_DIR || payload.cwd;
  if (!workspace || !payload.tool_name) return {};
  const toolCall = { tool: payload.tool_name, input: payload.tool_input ?? {} };
  const snapshot = await loadPolicy({ paths: storePathsFromFlags(workspace), agent: "commandcode" });
  const { decision } = decideWith(snapshot, { call: toolCall, mode: payload.permission_mode, cwd: payload.cwd });
  if (decision.decision === "allow") return {};
  if (decision.decision === "deny") return denyOutput(decision.reason);
  const admitted = await call("POST", "/api/agent/v1/cards", {
    agent: "commandcode",
    sessionId: payload.session_id,
    cwd: payload.cwd,
    mode: payload.permission_mode,
    tool: toolCall.tool,
    input: toolCall.input,
  });
  if (admitted.status === 200) {
    const d = (admitted.json as { decision: { decision: string; reason: string } }).decision;
    return d.decision === "allow"
      ? allowOutput(`Allowed by the permissions cockpit: ${d.reason}`)
      : denyOutput(d.reason);
  }
  if (admitted.status !== 201) return {};
  const outcome = await waitForCard(call, (admitted.json as { id: string }).id, waitSeconds, stopping);
  return outcome ? hookOutputFor(outcome) : {};
}

/** `cockpit hook commandcode`: reads Command Code's payload on stdin, prints its hook JSON (or nothing). */
export async function commandCodeHook(deps: HookDeps): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  let output: CommandCodeHookOutput = {};
  try {
    const token = process.env.COCKPIT_TOKEN;
    const parsed = CommandCodeHookPayload.safeParse(JSON.parse(await deps.readStdin()));
    if (token && parsed.success) {
      const payload = parsed.data;
      const call = deps.api(deps.cockpitUrl(), token);
      if (payload.hook_event_name === "PreToolUse") {
        const wait = Number(process.env.COCKPIT_HOOK_WAIT ?? 590);
        output = await preToolUse(
          call,
          payload,
          Number.isFinite(wait) && wait > 0 ? wait : 590,
          stop.signal,
          deps.waitForCard,
        );
        if (stop.signal.aborted) output = {};
      } else if (payload.hook_event_name === "PostToolUse" && payload.tool_name) {
        await call(
          "POST",
          "/api/agent/v1/events",
          {
            agent: "commandcode",
            events: [
              {
                kind: "post_tool_use",
                sessionId: payload.session_id,
                ...(payload.tool_use_id ? { toolUseId: payload.tool_use_id } : {}),
                tool: payload.tool_name,
                input: payload.tool_input ?? {},
                ...(payload.cwd ? { cwd: payload.cwd } : {}),
              },
            ],
          },
          5000,
        );
      }
    }
  } catch {
    // Unreachable cockpit, bad token, unreadable store, bad payload: no opinion, Command Code decides.
    output = {};
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
  if (Object.keys(output).length) process.stdout.write(JSON.stringify(output) + "\n");
  return 0;
}
