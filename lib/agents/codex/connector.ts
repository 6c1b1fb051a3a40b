/**
 * Codex's hook protocol behind the agent interface: `hooks.json` in a trusted project's `.codex/` (or `~/.codex/`
 * with `--user`) gets exactly the cockpit's handlers (every other byte kept); a PermissionRequest becomes a card
 * answered once from any device (Codex asked, so the rules it saw never approve it: the floor), Pre/PostToolUse go to
 * the audit log, UserPromptSubmit ends an absence hold. No answer, or no cockpit: print nothing, Codex's own prompt
 * decides.
 */
import path from "node:path";
import { readNoFollow, writeAtomically } from "@/lib/stores/atomic-write";
import { askPerson } from "../shared/ask-person";
import type { AgentConnector, ConnectTarget } from "../types";
import { hooksEnabled } from "./config";
import {
  CODEX_HOOK_EVENTS,
  CodexHookPayload,
  codexHookCommand,
  codexHookOutput,
  HooksFileRefused,
  installCodexHooks,
  removeCodexHooks,
  type CodexPermissionOutput,
} from "./hooks";
import { discoverCodexStores } from "./io/discover";
import { codexPathsOf, loadCodexParsers } from "./io/parsers";
import { info } from "./info";

type Where = Pick<ConnectTarget, "workspace" | "home" | "user">;

function hooksFile(t: Where): { file: string; root: string } {
  const root = t.user ? path.join(path.resolve(t.home), ".codex") : path.resolve(t.workspace);
  return { file: t.user ? path.join(root, "hooks.json") : path.join(root, ".codex", "hooks.json"), root };
}

async function editHooks(t: Where, edit: (text: string, file: string) => { text: string; changed: boolean }) {
  const { file, root } = hooksFile(t);
  const current = await readNoFollow(file);
  let result;
  try {
    result = edit(current.exists ? current.text : "", file);
  } catch (error) {
    if (error instanceof HooksFileRefused) throw new Error(error.message);
    throw error;
  }
  if (result.changed) await writeAtomically({ file, root, expectedVersion: current.version, content: result.text });
  return { file, changed: result.changed };
}

/** What Codex needs besides the file: the token, a trusted project (for a project's hooks), hooks switched on. */
async function nextSteps(t: ConnectTarget, file: string): Promise<string> {
  const lines = [
    `Start Codex with an agent token in its environment:`,
    `  export COCKPIT_TOKEN=...   (create one: npx cockpit agent-token create --workspace ${t.workspace})`,
  ];
  const { python } = await loadCodexParsers();
  const stores = await discoverCodexStores(codexPathsOf({ workspace: t.workspace, home: t.home }), python);
  if (!t.user && stores.activeTrust !== "trusted")
    lines.push(
      `Codex reads ${file} only in a trusted project, and ${t.workspace} is not one: trust it in Codex, or`,
      `  npx cockpit add --agent codex --scope global --action allow --rule 'trust_level = "trusted"' --workspace ${t.workspace}`,
      `  (or connect with --user to use ~/.codex/hooks.json for every project).`,
    );
  if (stores.userConfig && !hooksEnabled(stores.userConfig))
    lines.push(`~/.codex/config.toml switches hooks off ([features] hooks = false): Codex will not run them.`);
  return lines.join("\n") + "\n";
}

export const connector: AgentConnector<CodexHookPayload> = {
  payload: CodexHookPayload,
  http: false,
  user: true,
  async connect(target) {
    const command = codexHookCommand({ url: target.url, cliPath: target.cliPath });
    const result = await editHooks(target, (text, file) => installCodexHooks(text, command, file));
    return { ...result, events: [...CODEX_HOOK_EVENTS], next: await nextSteps(target, result.file) };
  },
  async disconnect(target) {
    const result = await editHooks(target, (text, file) => removeCodexHooks(text, file));
    return { ...result, events: [...CODEX_HOOK_EVENTS] };
  },
  async handle(payload, ctx): Promise<CodexPermissionOutput | null> {
    switch (payload.hook_event_name) {
      case "UserPromptSubmit":
        await ctx.port.userMessage(payload.session_id);
        return null;
      case "PreToolUse":
      case "PostToolUse":
        await ctx.port.toolUse(info.id, {
          phase: payload.hook_event_name === "PreToolUse" ? "pre" : "post",
          sessionId: payload.session_id,
          tool: payload.tool_name,
          input: { command: payload.tool_input.command },
          toolUseId: payload.tool_use_id.slice(0, 300),
          cwd: payload.cwd,
        });
        return null;
      case "PermissionRequest": {
        const description = payload.tool_input.description;
        const answer = await askPerson(
          {
            agent: info.id,
            sessionId: payload.session_id,
            cwd: payload.cwd,
            tool: payload.tool_name,
            // The command as Codex shows it (the engine reads it as Codex's shell runs it); the same input the
            // Pre/PostToolUse audit rows carry, so the audit log finds the card that let the call through.
            input: { command: payload.tool_input.command },
            ...(description ? { reason: description } : {}),
            // Codex fires PermissionRequest only when it decided to ask: its own rules never turn that into allow.
            agentAsked: true,
          },
          ctx,
        );
        if (answer.answer === "none") return null;
        return (
          codexHookOutput(
            answer.answer === "allow"
              ? { answer: "allow" }
              : {
                  answer: "deny",
                  ...(answer.message ? { message: answer.message } : {}),
                  ...(answer.answer === "deny" && answer.by ? { by: answer.by } : {}),
                },
          ) ?? null
        );
      }
    }
  },
};
