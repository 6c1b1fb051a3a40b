import os from "node:os";
import { CONNECTOR_AGENTS } from "@/lib/agents";
import { parseFlags, type Verb } from "../verb";
import { asRefusal, connectorArg, workspaceFolder } from "./connect-support";

const usage = `Usage: cockpit disconnect ${CONNECTOR_AGENTS.join("|")} --workspace DIR [--user]

  Removes exactly the hooks \`cockpit connect\` added (Claude Code: DIR/.claude/settings.local.json);
  nothing else changes.`;

export const disconnectVerb: Verb = {
  name: "disconnect",
  summary: "remove the cockpit's permission hook from an agent's settings",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { workspace: { type: "string" }, user: { type: "boolean" } },
      true,
    );
    const { connector } = await connectorArg(positionals);
    const workspace = workspaceFolder(values.workspace);
    let result;
    try {
      result = await connector.disconnect({
        workspace,
        home: process.env.HOME || os.homedir(),
        user: Boolean(values.user),
      });
    } catch (error) {
      throw asRefusal(error);
    }
    process.stdout.write(
      result.changed
        ? `Removed the cockpit hook from ${result.file}.\n`
        : `${result.file} has no cockpit hook; nothing changed.\n`,
    );
    return 0;
  },
};
