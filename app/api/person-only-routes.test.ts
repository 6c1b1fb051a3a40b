import fs from "node:fs";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { createAgentToken } from "@/lib/auth/agent-tokens";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import * as answer from "@/app/api/v1/cards/[id]/answer/route";
import * as entriesAdd from "@/app/api/v1/entries/add/route";
import * as entriesNarrow from "@/app/api/v1/entries/narrow/route";
import * as sessionEntries from "@/app/api/v1/session-entries/route";

// Every route that answers a card or writes an allow rule. The inventory check below fails when a new route
// calls one of those verbs without being listed here (and so without a 403 test for both credentials).
const ID = "00000000-0000-4000-8000-000000000001";
const PERSON_ROUTES = {
  "api/v1/cards/[id]/answer/route.ts": {
    handler: answer.POST,
    params: { id: ID },
    body: { outcome: "allow", remember: "workspace", hash: "a".repeat(64) },
  },
  "api/v1/entries/add/route.ts": {
    handler: entriesAdd.POST,
    params: {},
    body: { workspace: "w", agent: "claude-code", scope: "workspace", action: "allow", rule: "Bash(npm test)" },
  },
  "api/v1/entries/narrow/route.ts": {
    handler: entriesNarrow.POST,
    params: {},
    body: { workspace: "w", id: "x", version: "v", to: "Bash(npm test)" },
  },
  "api/v1/session-entries/route.ts": {
    handler: sessionEntries.POST,
    params: {},
    body: { workspace: "w", agentSessionId: "s", agent: "claude-code", action: "allow", rule: "Bash(npm test)" },
  },
} as const;
/** The ntfy button's capability route acts for the person who pressed it (its token is the proof). */
const CAPABILITY_ROUTES = ["api/v1/notify/actions/[token]/route.ts"];
const WRITING_VERBS =
  /\b(settleCard|addWorkspaceEntry|addWorkspaceSessionEntry|narrowWorkspaceEntry|addEntry|addSessionEntry|useActionToken)\b/;

const LOCAL = "cpc_person-only-credential";
const APP = path.resolve(__dirname, "..");
let opened: OpenedDb;
let root: string;
let agentToken: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "person-only-"));
  mkdirSync(path.join(root, "project"));
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values({ id: "w", path: path.join(root, "project"), name: "project" });
  agentToken = (
    await createAgentToken({ db: opened.db, actor: { kind: "local", name: "local-cli" }, input: { workspaceId: "w" } })
  ).token;
});
afterAll(async () => {
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

describe("answers and allow rules need a person", () => {
  it("lists every route that answers a card or writes an allow rule", () => {
    const writing = routeFiles(path.join(APP, "api"))
      .filter((f) => WRITING_VERBS.test(fs.readFileSync(f, "utf8")))
      .map((f) => path.relative(APP, f))
      .sort();
    expect(writing).toEqual([...Object.keys(PERSON_ROUTES), ...CAPABILITY_ROUTES].sort());
  });

  const cases = Object.entries(PERSON_ROUTES).flatMap(([file, r]) =>
    (["local CLI credential", "agent token"] as const).map((who) => [file, who, r] as const),
  );
  it.each(cases)("%s refuses the %s with 403 and a reason", async (_file, who, r) => {
    const bearer = who === "agent token" ? agentToken : LOCAL;
    const req = new NextRequest(new URL("/api/x", "http://localhost:3000"), {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify(r.body),
    });
    const res = await r.handler(req, { params: Promise.resolve(r.params as Record<string, string>) });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/person/);
  });
});
