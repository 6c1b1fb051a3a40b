import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readLocalCredential } from "@/lib/auth/local-credential";
import { loadEnv } from "@/lib/config/env";
import { CONNECTOR_AGENTS } from "@/lib/agents";
import { connectorOf } from "@/lib/agents/registry";
import type { AgentConnector } from "@/lib/agents/types";
import { CliError, UsageError } from "../verb";

/** The cockpit's URL for hooks: --url, COCKPIT_URL, the running cockpit's credential, else localhost:PORT. */
export function hookUrl(flag: string | undefined): string {
  const explicit = flag ?? process.env.COCKPIT_URL;
  if (explicit) {
    if (!/^https?:\/\//.test(explicit))
      throw new UsageError(`--url must start with http:// or https:// (got ${explicit})`);
    return explicit.replace(/\/$/, "");
  }
  const env = loadEnv();
  return (readLocalCredential(env.dataDir)?.url ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
}

/** Absolute path of this checkout's CLI entry point, for command hooks run from any folder. */
export function cliEntryPoint(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../bin/cockpit.mjs");
}

export function workspaceFolder(value: string | undefined): string {
  if (!value) throw new UsageError("--workspace DIR is required");
  const folder = path.resolve(value);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new CliError(`${folder} is not a folder`);
  return fs.realpathSync(folder);
}

/** The agent named on the command line, with its connector; unknown or without one: a usage error (exit 2). */
export async function connectorArg(positionals: string[]): Promise<{ id: string; connector: AgentConnector }> {
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length
        ? `name one agent, not "${positionals.join(" ")}"`
        : `name the agent: ${CONNECTOR_AGENTS.join(", ")}`,
    );
  const id = positionals[0]!;
  try {
    return { id, connector: await connectorOf(id) };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
