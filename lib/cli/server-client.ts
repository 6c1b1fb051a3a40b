import { loadEnv } from "@/lib/config/env";
import { readLocalCredential } from "@/lib/auth/local-credential";
import { CliError } from "./verb";

/** Calls the running server's API as the local owner, with the credential `cockpit start` left in the data folder. */
export async function callServer<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const env = loadEnv();
  const credential = readLocalCredential(env.dataDir);
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
