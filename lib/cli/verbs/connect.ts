import { addHooks, cockpitHandler, editClaudeSettings } from "@/lib/agents/claude-code/connect";
import * as commandcode from "@/lib/agents/commandcode/connect";
import { parseFlags, CliError, type Verb } from "../verb";
import { agentArg, cliEntryPoint, hookUrl, workspaceFolder } from "./connect-support";

const usage = `Usage: cockpit connect claude-code --workspace DIR [--http] [--url URL]
       cockpit connect commandcode --workspace DIR [--url URL]

  commandcode: adds \`cockpit hook commandcode\` to PreToolUse (timeout 600 s: it may wait for a person) and
  PostToolUse (timeout 10 s, audit) in DIR/.commandcode/settings.json, for every tool (no matcher).

  claude-code:
  Adds the cockpit's hook for PermissionRequest and UserPromptSubmit, and its audit hook for PreToolUse
  and PostToolUse (timeout 10 s), to DIR/.claude/settings.local.json
  (the file's other content is kept byte for byte; running it twice changes nothing).

  default   a command hook running this checkout's \`cockpit hook claude-code\` (timeout 600 s)
  --http    an HTTP hook to URL/api/agent/v1/hooks/claude-code with "Authorization: Bearer $COCKPIT_TOKEN"
  --url     the cockpit's address (default: COCKPIT_URL, else the running cockpit's local URL)

Claude Code then needs COCKPIT_TOKEN in its environment: \`cockpit agent-token create --workspace DIR\`.`;

export const connectVerb: Verb = {
  name: "connect",
  summary: "add the cockpit's permission hook to an agent's settings (claude-code, commandcode)",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { workspace: { type: "string" }, http: { type: "boolean" }, url: { type: "string" } },
      true,
    );
    const agent = agentArg(positionals);
    const workspace = workspaceFolder(values.workspace);
    const url = hookUrl(values.url);
    if (agent === "commandcode") return connectCommandCode(workspace, url, Boolean(values.http));
    const handler = cockpitHandler({ url, http: Boolean(values.http), cliPath: cliEntryPoint() });
    let result;
    try {
      result = await editClaudeSettings(workspace, (text) => addHooks(text, handler));
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    process.stdout.write(
      result.changed
        ? `Added the cockpit ${values.http ? "HTTP" : "command"} hook (PermissionRequest, UserPromptSubmit, PreToolUse, PostToolUse) to ${result.file}.\n`
        : `${result.file} already has the cockpit hook; nothing changed.\n`,
    );
    process.stdout.write(
      `Start Claude Code with an agent token in its environment:\n  export COCKPIT_TOKEN=...   (create one: npx cockpit agent-token create --workspace ${workspace})\n`,
    );
    return 0;
  },
};

/** Command Code: a command hook only (it has no HTTP handler). */
async function connectCommandCode(workspace: string, url: string, http: boolean): Promise<number> {
  if (http) throw new CliError("Command Code hooks are commands only: --http is for claude-code", 2);
  const handler = commandcode.commandCodeHandler({ url, cliPath: cliEntryPoint() });
  let result;
  try {
    result = await commandcode.editCommandCodeSettings(workspace, (text) => commandcode.addHooks(text, handler));
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  process.stdout.write(
    result.changed
      ? `Added the cockpit hook (PreToolUse, PostToolUse) to ${result.file}.\n`
      : `${result.file} already has the cockpit hook; nothing changed.\n`,
  );
  process.stdout.write(
    `Start Command Code with an agent token in its environment:\n  export COCKPIT_TOKEN=...   (create one: npx cockpit agent-token create --workspace ${workspace})\n` +
      `Command Code's docs do not say a hook's allow skips its own prompt: after an allow in the cockpit it may still ask.\n`,
  );
  return 0;
}
