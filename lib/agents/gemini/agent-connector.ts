/**
 * Gemini CLI's hook protocol behind the agent interface: `BeforeTool`, `AfterTool`, `BeforeAgent` and `Notification`
 * (`ToolPermission`) command hooks in `.gemini/settings.json` (or `~/.gemini/settings.json` with `--user`).
 *
 * What a BeforeTool hook may decide, from Gemini's own source (google-gemini/gemini-cli 5411f113,
 * packages/core/src/scheduler/scheduler.ts:619-691 `_processToolCall`, scheduler/hook-utils.ts:54-85
 * `evaluateBeforeToolHook`; the same code in @google/gemini-cli-core 0.61.0 dist/src/scheduler): the hook runs before
 * the policy check; `decision: "deny"`/`"block"` fails the call with the hook's reason, `decision: "ask"` forces the
 * terminal prompt, `continue: false` stops the agent, `hookSpecificOutput.tool_input` rewrites the arguments. A hook's
 * `"allow"` is read nowhere: the policy still runs and still asks. So a person can DENY a Gemini call from the phone;
 * approval happens in Gemini's terminal. The catalogue says so (`info.canAllowFromCockpit: false`, `approveNote`): the
 * card offers Deny only and the server refuses a person's allow. The hook waits for a deny (COCKPIT_HOOK_WAIT, 60 s
 * as `connect` writes it), then retires the card (aborted) and prints `{}`, and Gemini's own policy and prompt run.
 */
import { askPerson } from "../shared/ask-person";
import type { AgentConnector, ConnectTarget } from "../types";
import { writeAtomically, readNoFollow } from "@/lib/stores/atomic-write";
import { InvalidStoreError } from "@/lib/stores/errors";
import path from "node:path";
import {
  beforeToolOutput,
  callOf,
  GEMINI_HOOK_EVENTS,
  GeminiHookPayload,
  installHooks,
  removeHooks,
  type GeminiHookOutput,
} from "./hooks";
import { info } from "./info";

function settingsFile(target: Pick<ConnectTarget, "workspace" | "home" | "user">): { file: string; root: string } {
  return target.user
    ? { file: path.join(target.home, ".gemini", "settings.json"), root: target.home }
    : { file: path.join(target.workspace, ".gemini", "settings.json"), root: target.workspace };
}

async function editSettings(
  target: Pick<ConnectTarget, "workspace" | "home" | "user">,
  edit: (text: string, file: string) => string,
): Promise<{ file: string; changed: boolean }> {
  const { file, root } = settingsFile(target);
  const current = await readNoFollow(file);
  if (current.decodeError) throw new InvalidStoreError(`${file}: ${current.decodeError} — it is never overwritten`);
  let next: string;
  try {
    next = edit(current.text, file);
  } catch (error) {
    throw new InvalidStoreError((error as Error).message);
  }
  const changed = next !== current.text;
  if (changed) await writeAtomically({ file, root, expectedVersion: current.version, content: next });
  return { file, changed };
}

export const connector: AgentConnector<GeminiHookPayload> = {
  payload: GeminiHookPayload,
  http: false,
  user: true,
  async connect(target) {
    const result = await editSettings(target, (text, file) =>
      installHooks(text, { url: target.url, cliPath: target.cliPath }, file),
    );
    return {
      ...result,
      events: [...GEMINI_HOOK_EVENTS],
      next:
        `Start Gemini CLI with an agent token in its environment:\n  export COCKPIT_TOKEN=...   (create one: npx cockpit agent-token create --workspace ${target.workspace})\n` +
        (target.user
          ? ""
          : "Gemini runs a project's hooks only in a trusted folder (it asks once); use --user for ~/.gemini/settings.json.\n") +
        "Gemini lets a hook deny a call but not approve it: deny from the cockpit, approve in Gemini's terminal.\n",
    };
  },
  async disconnect(target) {
    const result = await editSettings(target, (text, file) => removeHooks(text, file).text);
    return { ...result, events: [...GEMINI_HOOK_EVENTS] };
  },
  async handle(payload, ctx): Promise<GeminiHookOutput | null> {
    switch (payload.hook_event_name) {
      case "BeforeAgent":
        await ctx.port.userMessage(payload.session_id);
        return null;
      case "Notification":
        // Gemini shows its own prompt now (observability only: the card, if any, is already there).
        return null;
      case "AfterTool": {
        const err = payload.tool_response.error;
        await ctx.port.toolUse(info.id, {
          phase: "post",
          sessionId: payload.session_id,
          tool: payload.tool_name,
          input: payload.tool_input,
          cwd: payload.cwd,
          ...(err
            ? { reason: `tool error: ${typeof err === "string" ? err : JSON.stringify(err)}`.slice(0, 500) }
            : {}),
          ...(payload.timestamp ? { at: payload.timestamp } : {}),
        });
        return null;
      }
      case "BeforeTool": {
        const call = callOf(payload);
        await ctx.port.toolUse(info.id, {
          phase: "pre",
          sessionId: payload.session_id,
          tool: payload.tool_name,
          input: payload.tool_input,
          cwd: payload.cwd,
          ...(payload.timestamp ? { at: payload.timestamp } : {}),
        });
        const card = {
          agent: info.id,
          sessionId: payload.session_id,
          cwd: payload.cwd,
          tool: call.tool,
          input: call.input ?? {},
          // The hook runs before Gemini's own policy check: Gemini has not decided to ask.
          agentAsked: false,
        };
        const admitted = await ctx.port.admit(card);
        // Settled at once by the cockpit's reading of Gemini's policy: a deny blocks; an allow changes nothing.
        if (admitted.status === "settled")
          return admitted.decision === "deny" ? { decision: "deny", reason: admitted.reason } : null;
        if (admitted.status === "refused") return null;
        const answer = await askPerson(card, { ...ctx, port: { ...ctx.port, admit: async () => admitted } });
        if (answer.answer === "deny")
          return beforeToolOutput({
            kind: "denied",
            ...(answer.by ? { by: answer.by } : {}),
            ...(answer.message ? { message: answer.message } : {}),
          });
        if (answer.answer === "allow")
          return beforeToolOutput({
            kind: "pass",
            note: "Permissions Cockpit: allowed there; Gemini CLI still asks in its terminal when its policy asks (a hook cannot approve).",
          });
        return null;
      }
    }
  },
};
