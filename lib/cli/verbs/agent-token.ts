import { ValidationError } from "@/lib/errors";
import path from "node:path";
import { callServer } from "../server-client";
import { parseFlags, type Verb } from "../verb";

const usage = `Usage: cockpit agent-token <create --workspace DIR [--name NAME] | list [--workspace DIR] [--json] | revoke ID>

  create   make a token an agent uses for the agent API; bound to one workspace, shown once
           (printed as the last line), stored only as a hash
  list     tokens with their workspace, last use and revocation
  revoke   stop accepting a token at once

Needs the running cockpit.`;

interface TokenRow {
  id: string;
  name: string;
  workspaceId: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const agentTokenVerb: Verb = {
  name: "agent-token",
  summary: "create, list or revoke agent tokens (one workspace each)",
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "create") {
      const { values, positionals } = parseFlags(
        rest,
        { workspace: { type: "string" }, name: { type: "string" } },
        true,
      );
      if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
      if (!values.workspace) throw new ValidationError("--workspace DIR is required");
      const created = await callServer<{ id: string; token: string; name: string }>("POST", "/api/v1/agent-tokens", {
        workspace: path.resolve(values.workspace),
        name: values.name,
      });
      process.stdout.write(
        `Created agent token "${created.name}" (id ${created.id}) for ${path.resolve(values.workspace)}.\nIt is shown only now. Give it to the agent, e.g. export COCKPIT_TOKEN=<token>:\n${created.token}\n`,
      );
      return 0;
    }
    if (sub === "list") {
      const { values, positionals } = parseFlags(
        rest,
        { workspace: { type: "string" }, json: { type: "boolean" } },
        true,
      );
      if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
      const query = values.workspace ? `?workspace=${encodeURIComponent(path.resolve(values.workspace))}` : "";
      const { tokens } = await callServer<{ tokens: TokenRow[] }>("GET", `/api/v1/agent-tokens${query}`);
      if (values.json) process.stdout.write(JSON.stringify(tokens, null, 2) + "\n");
      else if (!tokens.length)
        process.stdout.write("No agent tokens. Create one with `cockpit agent-token create --workspace DIR`.\n");
      else
        for (const t of tokens)
          process.stdout.write(
            `${t.id}  ${t.name}  workspace ${t.workspaceId}  ${t.revokedAt ? `revoked ${t.revokedAt}` : t.lastUsedAt ? `last used ${t.lastUsedAt}` : "never used"}\n`,
          );
      return 0;
    }
    if (sub === "revoke") {
      const { positionals } = parseFlags(rest, {}, true);
      if (positionals.length !== 1) throw new ValidationError("agent-token revoke takes exactly one token id");
      await callServer("DELETE", `/api/v1/agent-tokens/${encodeURIComponent(positionals[0]!)}`);
      process.stdout.write(`Revoked agent token ${positionals[0]}\n`);
      return 0;
    }
    throw new ValidationError(sub ? `unknown subcommand "${sub}"` : "missing subcommand");
  },
};
