import { ValidationError } from "@/lib/errors";
import { asRefusal } from "./connect-support";
import os from "node:os";
import { agentLabel, CONNECTOR_AGENTS } from "@/lib/agents";
import { parseFlags, type Verb } from "../verb";
import { connectorArg, cliEntryPoint, hookUrl, workspaceFolder } from "./connect-support";

const usage = `Usage: cockpit connect ${CONNECTOR_AGENTS.join("|")} --workspace DIR [--http|--audit-http] [--url URL] [--user]

  Adds the cockpit's hooks to the agent's hook settings in DIR (Claude Code: .claude/settings.local.json:
  PermissionRequest and UserPromptSubmit, and the audit hooks PreToolUse and PostToolUse with a 10 s timeout).
  The file's other content is kept byte for byte; running it twice changes nothing.

  default   a command hook running this checkout's \`cockpit hook <agent>\` (timeout 600 s)
  --http    an HTTP hook to URL/api/agent/v1/hooks/<agent> with "Authorization: Bearer $COCKPIT_TOKEN"
            (agents with HTTP hooks)
  --audit-http  HTTP hooks for the audit-only tool events (Claude Code: PreToolUse, PostToolUse), the command
            hook for the rest: auditing a tool call costs one local request instead of starting a process;
            while the cockpit is down each of those is a failed (non-blocking) hook (docs/agents.md)
  --user    the agent's hook file in your home folder instead of DIR's (agents that read one)
  --url     the cockpit's address (default: COCKPIT_URL, else the running cockpit's local URL)

The agent then needs COCKPIT_TOKEN in its environment: \`cockpit agent-token create --workspace DIR\`.`;

export const connectVerb: Verb = {
  name: "connect",
  summary: `add the cockpit's permission hook to an agent's settings (${CONNECTOR_AGENTS.join(", ")})`,
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        workspace: { type: "string" },
        http: { type: "boolean" },
        "audit-http": { type: "boolean" },
        url: { type: "string" },
        user: { type: "boolean" },
      },
      true,
    );
    const { id, connector } = await connectorArg(positionals);
    const auditHttp = Boolean(values["audit-http"]);
    if (values.http && auditHttp)
      throw new ValidationError("--http already makes every hook an HTTP hook: name one of the two");
    if ((values.http || auditHttp) && !connector.http)
      throw new ValidationError(
        `${agentLabel(id)} has no HTTP hooks: leave out --${values.http ? "http" : "audit-http"}`,
      );
    if (values.user && !connector.user)
      throw new ValidationError(`${agentLabel(id)} reads no hook file of yours: leave out --user`);
    const workspace = workspaceFolder(values.workspace);
    const url = hookUrl(values.url);
    let result;
    try {
      result = await connector.connect({
        workspace,
        home: process.env.HOME || os.homedir(),
        user: Boolean(values.user),
        url,
        cliPath: cliEntryPoint(),
        http: Boolean(values.http),
        auditHttp,
      });
    } catch (error) {
      throw asRefusal(error);
    }
    process.stdout.write(
      result.changed
        ? `Added the cockpit ${values.http ? "HTTP" : auditHttp ? "command and HTTP (audit)" : "command"} hook (${result.events.join(", ")}) to ${result.file}.\n`
        : `${result.file} already has the cockpit hook; nothing changed.\n`,
    );
    process.stdout.write(
      result.next ??
        `Start ${agentLabel(id)} with an agent token in its environment:\n  export COCKPIT_TOKEN=...   (create one: npx cockpit agent-token create --workspace ${workspace})\n`,
    );
    return 0;
  },
};
