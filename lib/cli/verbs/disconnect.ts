import { editClaudeSettings, removeHooks } from "@/lib/agents/claude-code/connect";
import * as commandcode from "@/lib/agents/commandcode/connect";
import { parseFlags, CliError, type Verb } from "../verb";
import { agentArg, workspaceFolder } from "./connect-support";

const usage = `Usage: cockpit disconnect claude-code|commandcode --workspace DIR

  Removes exactly the hooks \`cockpit connect\` added (claude-code: DIR/.claude/settings.local.json;
  commandcode: DIR/.commandcode/settings.json); nothing else changes.`;

export const disconnectVerb: Verb = {
  name: "disconnect",
  summary: "remove the cockpit's permission hook from an agent's settings",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { workspace: { type: "string" } }, true);
    const agent = agentArg(positionals);
    const workspace = workspaceFolder(values.workspace);
    let result;
    try {
      result =
        agent === "commandcode"
          ? await commandcode.editCommandCodeSettings(workspace, (text) => commandcode.removeHooks(text))
          : await editClaudeSettings(workspace, (text) => removeHooks(text));
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    process.stdout.write(
      result.changed
        ? `Removed the cockpit hook from ${result.file}.\n`
        : `${result.file} has no cockpit hook; nothing changed.\n`,
    );
    return 0;
  },
};
