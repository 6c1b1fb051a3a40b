import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { DEVELOPER_CREDENTIAL_ENV, ensureDeveloperCredential, LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import * as workspacesRoute from "@/app/api/v1/workspaces/route";
import type { RouteHandler } from "@/lib/http/route";
import { POST } from "./route";

const LOCAL = "cpc_login-link-local-credential";
let opened: OpenedDb;
let dir: string;
let developer: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "developer-credential-"));
  const { hash, file } = ensureDeveloperCredential(dir);
  developer = (JSON.parse(fs.readFileSync(file, "utf8")) as { token: string }).token;
  expect(hashToken(developer)).toBe(hash);
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  process.env[DEVELOPER_CREDENTIAL_ENV] = hash;
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
}, 120_000);
afterAll(async () => {
  delete process.env[DEVELOPER_CREDENTIAL_ENV];
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = (handler: RouteHandler, method: string, bearer: string) =>
  handler(new NextRequest("http://localhost:3000/api/x", { method, headers: { authorization: `Bearer ${bearer}` } }), {
    params: Promise.resolve({}),
  } as never);

describe("the developer credential (docs/deploy.md)", () => {
  it("is stable across starts, kept 0600 in the data folder, and rotated by deleting the file", () => {
    const first = ensureDeveloperCredential(dir);
    expect(ensureDeveloperCredential(dir).hash).toBe(first.hash);
    expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "developer-credential-"));
    expect(ensureDeveloperCredential(other).hash).not.toBe(first.hash);
    fs.rmSync(other, { recursive: true, force: true });
  });

  it("works as the CLI but mints no login link; the data folder's credential does", async () => {
    expect((await call(workspacesRoute.GET, "GET", developer)).status).toBe(200);
    const refused = await call(POST, "POST", developer);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/cannot mint login links/);
    const minted = await call(POST, "POST", LOCAL);
    expect(minted.status).toBe(200);
    expect(((await minted.json()) as { url: string }).url).toMatch(/\/login\?token=cpl_/);
  });
});
