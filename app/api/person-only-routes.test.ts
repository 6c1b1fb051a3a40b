import fs from "node:fs";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { can, PERSON_PERMISSIONS } from "@/lib/auth/access";
import { createAgentToken } from "@/lib/auth/agent-tokens";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import type { RouteHandler } from "@/lib/http/route";

/**
 * The doors. Anything running as the developer's OS user can read the local CLI credential and an agent's token,
 * so every route that yields a session, a person, a credential, a remembered allow or an answer, or that changes
 * how approvals are proven or where approve buttons are delivered, must refuse both (`route({ person: true })`).
 *
 * This test classifies EVERY route handler under app/api. A new route fails it until it is placed in one of the
 * lists below: a door (then it is called here with both credentials and must answer 403), a route the CLI may
 * reach (with the reason it is not a door), a public route (with the token that guards it), or an agent route.
 */
const DOORS: Record<string, string[]> = {
  "api/v1/cards/[id]/answer/route.ts": ["POST"],
  "api/v1/cards/[id]/passkey-options/route.ts": ["POST"],
  "api/v1/cards/[id]/undo-remember/route.ts": ["POST"],
  "api/v1/entries/add/route.ts": ["POST"],
  "api/v1/entries/narrow/route.ts": ["POST"],
  "api/v1/session-entries/route.ts": ["POST"],
  "api/v1/pair/route.ts": ["POST"],
  "api/v1/invites/route.ts": ["GET", "POST"],
  "api/v1/invites/[id]/route.ts": ["DELETE"],
  "api/v1/collaborators/route.ts": ["GET"],
  "api/v1/collaborators/[id]/route.ts": ["PATCH", "DELETE"],
  "api/v1/passkeys/route.ts": ["GET", "POST"],
  "api/v1/passkeys/options/route.ts": ["POST"],
  "api/v1/passkeys/[id]/route.ts": ["PATCH", "DELETE"],
  "api/v1/passkeys/step-up/route.ts": ["POST"],
  "api/v1/workspaces/[id]/settings/route.ts": ["PUT"],
  "api/v1/webhooks/route.ts": ["GET", "POST"],
  "api/v1/webhooks/[id]/route.ts": ["GET", "PATCH", "DELETE"],
  "api/v1/webhooks/[id]/test/route.ts": ["POST"],
  "api/v1/webhooks/[id]/deliveries/route.ts": ["GET"],
  "api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route.ts": ["POST"],
  "api/v1/notify/push/route.ts": ["POST"],
};

/** Routes the local CLI credential may reach, each with why it is not a door. */
const CLI_REACHABLE: Record<string, string> = {
  "api/local/login-link/route.ts POST":
    "the owner's bootstrap sign-in (the data folder's credential only: the developer credential of docs/deploy.md gets 403); every link it mints is listed in the web app's notice until used or dismissed",
  "api/local/store-writes/route.ts POST":
    "records the entry.* audit row of a store write the CLI already made with its own OS rights; it writes no file, and records only a version that is on disk",
  "api/auth/logout/route.ts POST": "ends a session",
  "api/v1/agent-tokens/route.ts GET": "read-only",
  "api/v1/agent-tokens/route.ts POST": "an agent token reaches only the agent API: it can neither answer nor allow",
  "api/v1/agent-tokens/[id]/route.ts DELETE": "revokes a token",
  "api/v1/audit/route.ts GET": "read-only",
  "api/v1/audit/export/route.ts GET": "read-only",
  "api/v1/audit/histogram/route.ts GET": "read-only",
  "api/v1/audit/verify/route.ts POST": "read-only check",
  "api/v1/audit/import/route.ts POST": "imported rows live under detail.imported and never render as a person's answer",
  "api/v1/cards/route.ts GET": "read-only",
  "api/v1/cards/count/route.ts GET": "read-only",
  "api/v1/cards/[id]/route.ts GET": "read-only",
  "api/v1/cards/[id]/displayed/route.ts POST": "records that a card was shown",
  "api/v1/devices/route.ts GET": "read-only",
  "api/v1/devices/[id]/route.ts DELETE": "ends a session",
  "api/v1/entries/route.ts GET": "read-only",
  "api/v1/entries/revoke/route.ts POST": "the CLI edits the same files directly; the store layer audits it",
  "api/v1/entries/clean-up/route.ts POST": "the CLI edits the same files directly; the store layer audits it",
  "api/v1/entries/hygiene/route.ts GET": "read-only",
  "api/v1/entries/impact/route.ts POST": "read-only preview",
  "api/v1/entries/narrow/check/route.ts POST": "read-only check",
  "api/v1/entries/suggestions/route.ts GET": "read-only",
  "api/v1/events/route.ts GET": "read-only stream",
  "api/v1/me/route.ts GET": "read-only",
  "api/v1/notify/allow-hosts/route.ts GET": "read-only",
  "api/v1/notify/allow-hosts/route.ts PUT": "which hosts webhooks may reach; creating a webhook is a door",
  "api/v1/notify/push/route.ts GET": "read-only",
  "api/v1/notify/push/route.ts DELETE": "removes a push subscription",
  "api/v1/session-entries/route.ts GET": "read-only",
  "api/v1/sessions/route.ts GET": "read-only",
  "api/v1/sessions/[rootSessionId]/release/route.ts POST": "ends an absence hold; answers nothing",
  "api/v1/settings/absence/route.ts GET": "read-only",
  "api/v1/settings/absence/route.ts PUT": "the absence timeout only denies",
  "api/v1/workspaces/route.ts GET": "read-only",
  "api/v1/workspaces/route.ts POST": "registers a folder; its rules come from its files",
  "api/v1/workspaces/[id]/route.ts GET": "read-only",
  "api/v1/workspaces/[id]/route.ts DELETE": "unregisters a folder",
};

/** Public routes, each with what guards it. */
const PUBLIC: Record<string, string> = {
  "api/health/route.ts GET": "reveals nothing",
  "api/auth/login/route.ts POST": "a single-use login link token",
  "api/auth/invite/route.ts POST": "a single-use invite token",
  "api/auth/passkey/options/route.ts POST": "a login challenge; the passkey is the proof",
  "api/auth/passkey/route.ts POST": "a registered passkey's assertion",
  "api/v1/notify/actions/[token]/route.ts POST": "a single-use action token bound to one card",
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Verbs that answer, remember, mint or change how approvals are proven: a route file calling one is a door. */
const DOOR_VERBS =
  /\b(settleCard|addWorkspaceEntry|addWorkspaceSessionEntry|narrowWorkspaceEntry|addEntry|addSessionEntry|createPairingLink|createInvite|updateCollaborator|registerPasskey|passkeyRegistrationOptions|removePasskey|approvalAssertionOptions|stepUp|setWorkspaceSettings|createEndpoint|updateEndpoint|subscribePush)\b/;

const ID = "00000000-0000-4000-8000-000000000001";
const LOCAL = "cpc_person-only-credential";
const APP = path.resolve(__dirname, "..");
let opened: OpenedDb;
let root: string;
let agentToken: string;
const handlers = new Map<string, RouteHandler>();

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}
const FILES = routeFiles(path.join(APP, "api")).map((f) => path.relative(APP, f));

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
  for (const file of FILES) {
    const mod = (await import(path.join(APP, file))) as Record<string, unknown>;
    for (const m of METHODS) if (mod[m]) handlers.set(`${file} ${m}`, mod[m] as RouteHandler);
  }
}, 120_000);
afterAll(async () => {
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

describe("every door refuses the local CLI credential and agent tokens", () => {
  it("every handler goes through route() and is classified", () => {
    const unclassified: string[] = [];
    for (const [key, handler] of handlers) {
      expect(handler.meta, `${key} must be built with route()`).toBeDefined();
      const [file, method] = key.split(" ") as [string, string];
      const door = DOORS[file]?.includes(method) ?? false;
      expect(handler.meta.person, `${key}: person flag must match its place in DOORS`).toBe(door);
      if (door) continue;
      const { access } = handler.meta;
      if (access === "agent") expect(file.startsWith("api/agent/"), key).toBe(true);
      else if (access === "public") {
        if (!PUBLIC[key]) unclassified.push(`${key} (public: say what guards it)`);
      } else if (!CLI_REACHABLE[key]) unclassified.push(`${key} (a door? add person: true; else say why not)`);
    }
    expect(unclassified).toEqual([]);
    // The lists name only routes that exist.
    const existing = new Set(handlers.keys());
    for (const key of [...Object.keys(CLI_REACHABLE), ...Object.keys(PUBLIC)]) expect(existing, key).toContain(key);
    for (const [file, methods] of Object.entries(DOORS))
      for (const m of methods) expect(existing, `${file} ${m}`).toContain(`${file} ${m}`);
  });

  it("a route calling a verb that answers, remembers, mints or changes proof is a door", () => {
    const undeclared = FILES.filter((f) => f !== "api/v1/notify/actions/[token]/route.ts")
      .filter((f) => !f.startsWith("api/auth/"))
      .filter((f) => DOOR_VERBS.test(fs.readFileSync(path.join(APP, f), "utf8")))
      .filter((f) => !DOORS[f]);
    expect(undeclared).toEqual([]);
  });

  it("the engine's can() refuses the local CLI every person-only action", () => {
    for (const action of PERSON_PERMISSIONS) {
      const d = can({ kind: "local", name: "local-cli" }, action, null);
      expect(d.ok, action).toBe(false);
      if (!d.ok) expect(d.reason).toMatch(/person/);
    }
  });

  const cases = Object.entries(DOORS).flatMap(([file, methods]) =>
    methods.flatMap((m) => (["local CLI credential", "agent token"] as const).map((who) => [file, m, who] as const)),
  );
  it.each(cases)("%s %s refuses the %s with 403 and a reason", async (file, method, who) => {
    const bearer = who === "agent token" ? agentToken : LOCAL;
    const hasBody = method !== "GET" && method !== "DELETE";
    const req = new NextRequest(new URL("/api/x", "http://localhost:3000"), {
      method,
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      ...(hasBody ? { body: JSON.stringify({ outcome: "allow", hash: "a".repeat(64), role: "admin" }) } : {}),
    });
    const params = { id: ID, deliveryId: ID, token: "x", rootSessionId: "s" };
    const res = await handlers.get(`${file} ${method}`)!(req, { params: Promise.resolve(params) });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/person/);
  });
});
