import fs from "node:fs";
import path from "node:path";
// zod/mini: the hook bridge reads this file on its small bundle (dist/cli/hook.mjs).
import * as z from "zod/mini";
import { digestsEqual, hashToken, randomToken } from "./tokens";

/** What `cockpit start` leaves in the data folder (mode 0600) for CLI verbs that need the server. */
export const LocalCredential = z.object({ url: z.string(), token: z.string(), pid: z.number() });
export type LocalCredential = z.infer<typeof LocalCredential>;

const LOCAL_CREDENTIAL_FILE = "local-credential.json";
export const LOCAL_CREDENTIAL_ENV = "COCKPIT_LOCAL_CREDENTIAL_SHA256";

/** Writes a fresh credential and returns the hash the server must accept. */
export function writeLocalCredential(dataDir: string, url: string, pid: number): { hash: string; file: string } {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = randomToken("cpc_");
  const file = path.join(dataDir, LOCAL_CREDENTIAL_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ url, token, pid }), { mode: 0o600 });
  fs.renameSync(tmp, file);
  return { hash: hashToken(token), file };
}

export function readLocalCredential(dataDir: string): LocalCredential | null {
  try {
    return LocalCredential.parse(JSON.parse(fs.readFileSync(path.join(dataDir, LOCAL_CREDENTIAL_FILE), "utf8")));
  } catch {
    return null;
  }
}

const DEVELOPER_CREDENTIAL_FILE = "developer-credential.json";
export const DEVELOPER_CREDENTIAL_ENV = "COCKPIT_DEVELOPER_CREDENTIAL_SHA256";
const DeveloperCredential = z.object({ token: z.string().check(z.startsWith("cpc_")) });

/**
 * The developer credential (docs/deploy.md): a stable `cpc_` token kept in the data folder, which the owner hands to
 * the developer's user when the cockpit runs as its own OS user. The server takes it as the CLI, except that it
 * cannot mint login links. Created on the first start; delete the file and restart to rotate it.
 */
export function ensureDeveloperCredential(dataDir: string): { hash: string; file: string } {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DEVELOPER_CREDENTIAL_FILE);
  try {
    return { hash: hashToken(DeveloperCredential.parse(JSON.parse(fs.readFileSync(file, "utf8"))).token), file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const token = randomToken("cpc_");
  try {
    fs.writeFileSync(file, JSON.stringify({ token }) + "\n", { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return ensureDeveloperCredential(dataDir);
}

/** True when `token` is the developer credential the server was started with. */
export function isDeveloperCredential(
  token: string | null | undefined,
  expectedHash = process.env[DEVELOPER_CREDENTIAL_ENV],
): boolean {
  if (!token || !expectedHash || !token.startsWith("cpc_")) return false;
  return digestsEqual(hashToken(token), expectedHash);
}

/** True when `token` is the credential the server was started with. */
export function isLocalCredential(
  token: string | null | undefined,
  expectedHash = process.env[LOCAL_CREDENTIAL_ENV],
): boolean {
  if (!token || !expectedHash || !token.startsWith("cpc_")) return false;
  return digestsEqual(hashToken(token), expectedHash);
}
