import { loadEnv } from "@/lib/config/env";
import { readLocalCredential } from "@/lib/auth/local-credential";
import { CliError } from "./verb";

/**
 * The credential to call the server with: `COCKPIT_URL` + `COCKPIT_CLI_TOKEN` when the owner hands them over
 * explicitly (the cockpit runs as its own OS user and its data folder is unreadable here, docs/deploy.md), else the
 * one `cockpit start` left in the data folder.
 */
export function serverCredential(
  vars: Record<string, string | undefined> = process.env,
  dataDir = loadEnv().dataDir,
): { url: string; token: string } | null {
  const url = vars.COCKPIT_URL?.trim();
  const token = vars.COCKPIT_CLI_TOKEN?.trim();
  if (url || token) {
    if (!url || !token) throw new CliError("set both COCKPIT_URL and COCKPIT_CLI_TOKEN, or neither");
    if (!token.startsWith("cpc_")) throw new CliError("COCKPIT_CLI_TOKEN is not a cockpit CLI credential (cpc_…)");
    try {
      new URL(url);
    } catch {
      throw new CliError(`COCKPIT_URL is not a URL: ${url}`);
    }
    return { url, token };
  }
  return readLocalCredential(dataDir);
}

/** Calls the running server's API as the local owner (see `serverCredential`). */
export async function callServer<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const env = loadEnv();
  const credential = serverCredential(process.env, env.dataDir);
  if (!credential)
    throw new CliError(`the cockpit is not running (no credential in ${env.dataDir}); start it with \`npm start\``);
  let res: Response;
  try {
    res = await fetch(new URL(apiPath, credential.url), {
      method,
      headers: {
        authorization: `Bearer ${credential.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new CliError(`the cockpit at ${credential.url} is not reachable; start it with \`npm start\``);
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const reason = (parsed as { error?: string } | undefined)?.error ?? `HTTP ${res.status}`;
    if (res.status === 401)
      throw new CliError(
        `the running cockpit did not accept the local credential (was it restarted by another command?): ${reason}`,
      );
    throw new CliError(reason);
  }
  return parsed as T;
}
