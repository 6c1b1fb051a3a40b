import { AppError, NotFoundError, ValidationError } from "@/lib/errors";
import fs from "node:fs";
import path from "node:path";
import { readLocalCredential } from "@/lib/auth/local-credential";
import { loadEnv } from "@/lib/config/env";
import { packageRoot } from "../package-root";

export { connectorArg } from "../connector-arg";

/** The cockpit's URL for hooks: --url, COCKPIT_URL, the running cockpit's credential, else localhost:PORT. */
export function hookUrl(flag: string | undefined): string {
  const explicit = flag ?? process.env.COCKPIT_URL;
  if (explicit) {
    if (!/^https?:\/\//.test(explicit))
      throw new ValidationError(`--url must start with http:// or https:// (got ${explicit})`);
    return explicit.replace(/\/$/, "");
  }
  const env = loadEnv();
  return (readLocalCredential(env.dataDir)?.url ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
}

/** Absolute path of this checkout's CLI entry point, for command hooks run from any folder. */
export function cliEntryPoint(): string {
  return path.join(packageRoot(), "bin", "cockpit.mjs");
}

export function workspaceFolder(value: string | undefined): string {
  if (!value) throw new ValidationError("--workspace DIR is required");
  const folder = path.resolve(value);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory())
    throw new NotFoundError(`${folder} is not a folder`);
  return fs.realpathSync(folder);
}

/** What `connect`/`disconnect` say when the agent's files refuse the edit: a typed error as it is, anything else one line (exit 1). */
export function asRefusal(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError((error as Error)?.message ?? String(error));
}
