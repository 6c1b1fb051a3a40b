/**
 * Route × role table: for every person route, anonymous → 401, a role too low → 403, the right role →
 * success, and an admin of another workspace → 403/404 (or, for lists, nothing of the other workspace).
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { memberships, notifyDeliveries, passkeys, sessions, users, workspaces } from "@/db/schema";
import { passkeyRegistrationOptions } from "@/lib/auth/passkeys";
import { actorFromSessionToken } from "@/lib/auth/sessions";
import { SoftAuthenticator } from "@/test/support/soft-authenticator";
import * as passkeysRoute from "@/app/api/v1/passkeys/route";
import * as passkeyOptionsRoute from "@/app/api/v1/passkeys/options/route";
import * as passkeyOne from "@/app/api/v1/passkeys/[id]/route";
import * as cardPasskeyOptions from "@/app/api/v1/cards/[id]/passkey-options/route";
import * as stepUpRoute from "@/app/api/v1/passkeys/step-up/route";
import * as workspaceSettings from "@/app/api/v1/workspaces/[id]/settings/route";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { ownerActor } from "@/test/support/auth";
import { ensureOwner } from "@/lib/auth/owner";
import { openSession } from "@/lib/auth/sessions";
import { hashToken } from "@/lib/auth/tokens";
import type { Actor } from "@/lib/auth/actor";
import { createAgentToken } from "@/lib/auth/agent-tokens";
import { createEndpoint } from "@/lib/notify";
import { listWorkspaceEntries } from "@/lib/entries";
import { notifyFixture, type NotifyFixture } from "@/test/support/notify";
import { eq } from "drizzle-orm";
import { createECDH, randomBytes } from "node:crypto";
import { createInvite } from "@/lib/auth/invites";
import * as webhookTest from "@/app/api/v1/webhooks/[id]/test/route";
import * as redeliver from "@/app/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route";
import * as cardsList from "@/app/api/v1/cards/route";
import * as cardsCount from "@/app/api/v1/cards/count/route";
import * as cardOne from "@/app/api/v1/cards/[id]/route";
import * as cardAnswer from "@/app/api/v1/cards/[id]/answer/route";
import * as cardDisplayed from "@/app/api/v1/cards/[id]/displayed/route";
import * as entries from "@/app/api/v1/entries/route";
import * as entriesAdd from "@/app/api/v1/entries/add/route";
import * as entriesRevoke from "@/app/api/v1/entries/revoke/route";
import * as entriesNarrow from "@/app/api/v1/entries/narrow/route";
import * as entriesNarrowCheck from "@/app/api/v1/entries/narrow/check/route";
import * as entriesSuggest from "@/app/api/v1/entries/suggestions/route";
import * as sessionEntries from "@/app/api/v1/session-entries/route";
import * as rootSessions from "@/app/api/v1/sessions/route";
import * as release from "@/app/api/v1/sessions/[rootSessionId]/release/route";
import * as absence from "@/app/api/v1/settings/absence/route";
import * as webhooks from "@/app/api/v1/webhooks/route";
import * as webhookOne from "@/app/api/v1/webhooks/[id]/route";
import * as webhookDeliveries from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as allowHosts from "@/app/api/v1/notify/allow-hosts/route";
import * as push from "@/app/api/v1/notify/push/route";
import * as agentTokens from "@/app/api/v1/agent-tokens/route";
import * as agentTokenOne from "@/app/api/v1/agent-tokens/[id]/route";
import * as workspacesRoute from "@/app/api/v1/workspaces/route";
import * as workspaceOne from "@/app/api/v1/workspaces/[id]/route";
import * as invitesRoute from "@/app/api/v1/invites/route";
import * as inviteOne from "@/app/api/v1/invites/[id]/route";
import * as cardUndo from "@/app/api/v1/cards/[id]/undo-remember/route";
import * as meRoute from "@/app/api/v1/me/route";
import * as collaborators from "@/app/api/v1/collaborators/route";
import * as collaboratorOne from "@/app/api/v1/collaborators/[id]/route";
import * as pair from "@/app/api/v1/pair/route";
import * as devices from "@/app/api/v1/devices/route";
import * as deviceOne from "@/app/api/v1/devices/[id]/route";
import * as logout from "@/app/api/auth/logout/route";
import * as loginLink from "@/app/api/local/login-link/route";
import * as storeWrites from "@/app/api/local/store-writes/route";
import * as auditVerify from "@/app/api/v1/audit/verify/route";
import * as entriesHygiene from "@/app/api/v1/entries/hygiene/route";
import * as entriesImpact from "@/app/api/v1/entries/impact/route";
import * as auditList from "@/app/api/v1/audit/route";
import * as auditExport from "@/app/api/v1/audit/export/route";
import * as auditHistogram from "@/app/api/v1/audit/histogram/route";
import * as auditImport from "@/app/api/v1/audit/import/route";
import * as entriesCleanUp from "@/app/api/v1/entries/clean-up/route";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Who = "anon" | "nobody" | "viewer" | "approver" | "admin" | "adminW2" | "adminAll" | "owner";

let opened: OpenedDb;
let f: NotifyFixture;
let root: string;
const cookies = {} as Record<Exclude<Who, "anon">, string>;
const userIds = {} as Record<Exclude<Who, "anon">, string>;
const LOCAL: Actor = { kind: "local", name: "local-cli" };
const savedHome = process.env.HOME;
let otherFolder: string;
/** Webhooks and invites are a person's act (the local CLI credential is refused): fixtures use the owner's session. */
const asOwner = (): Actor => ownerActor({ userId: userIds.owner!, name: "owner" });

async function person(who: Exclude<Who, "anon">, grants: [string | null, "viewer" | "approver" | "admin"][]) {
  const id = who === "owner" ? (await ensureOwner(opened.db)).id : `u-${who}`;
  if (who !== "owner") await opened.db.insert(users).values({ id, name: who });
  for (const [workspaceId, role] of grants)
    await opened.db.insert(memberships).values({ id: crypto.randomUUID(), userId: id, workspaceId, role });
  const s = await opened.db.transaction((tx) => openSession(tx, { userId: id, signIn: "link", userAgent: "vitest" }));
  cookies[who] = s.sessionToken;
  userIds[who] = id;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "access-api-"));
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken("cpc_access-test");
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  f = await notifyFixture({ opened, root, workspaceId: "w1" });
  process.env.HOME = f.home;
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  otherFolder = path.join(root, "other");
  mkdirSync(otherFolder);
  await opened.db.insert(workspaces).values({ id: "w2", path: otherFolder, name: "other" });
  await person("owner", []);
  await person("nobody", []);
  await person("viewer", [["w1", "viewer"]]);
  await person("approver", [["w1", "approver"]]);
  await person("admin", [["w1", "admin"]]);
  await person("adminW2", [["w2", "admin"]]);
  await person("adminAll", [[null, "admin"]]);
});
afterAll(async () => {
  process.env.HOME = savedHome;
  await f.cleanup();
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

interface Call {
  url: string;
  params?: Record<string, string>;
  body?: unknown;
}
async function send(handler: Handler, method: string, who: Who, call: Call): Promise<Response> {
  const headers: Record<string, string> = { "user-agent": "vitest", origin: "http://localhost:3000" };
  if (who !== "anon") headers.cookie = `cockpit_session=${cookies[who]}`;
  if (call.body !== undefined) headers["content-type"] = "application/json";
  const req = new NextRequest(new URL(call.url, "http://localhost:3000"), {
    method,
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    signal: AbortSignal.timeout(2_000),
  });
  return handler(req, { params: Promise.resolve(call.params ?? {}) });
}

const admit = (cmd = `git push origin b-${crypto.randomUUID().slice(0, 8)}`) =>
  f.admit(cmd, `s-${crypto.randomUUID()}`);
async function entry(rule = "Bash(npm:*)") {
  mkdirSync(path.join(f.workspace, ".claude"), { recursive: true });
  writeFileSync(path.join(f.workspace, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: [rule] } }));
  const listing = await listWorkspaceEntries({ db: opened.db, actor: LOCAL, input: { workspace: "w1" } });
  const e = listing.entries.find((x) => x.rule === rule)!;
  return { id: e.id, version: e.store.version };
}
const endpoint = async (workspace: string | null = "w1") =>
  (await createEndpoint({ db: opened.db, actor: asOwner(), input: { url: "http://127.0.0.1:9/hook", workspace } }))
    .endpoint.id;
async function collaborator(grants: [string | null, "viewer" | "approver" | "admin"][] = [["w1", "viewer"]]) {
  const id = `u-${crypto.randomUUID()}`;
  await opened.db.insert(users).values({ id, name: "temp" });
  for (const [workspaceId, role] of grants)
    await opened.db.insert(memberships).values({ id: crypto.randomUUID(), userId: id, workspaceId, role });
  return id;
}

async function fakePasskey(userId: string): Promise<string> {
  const id = crypto.randomUUID();
  await opened.db.insert(passkeys).values({ id, userId, name: "test key", publicKey: "AA" });
  return id;
}

type Needed = "viewer" | "approver" | "admin" | "adminAll" | "owner";
interface Row {
  name: string;
  handler: Handler;
  method: string;
  needs: Needed;
  /** Builds the request (fresh resources per call). */
  call: () => Promise<Call> | Call;
  /** For lists: another workspace's admin gets 200 but nothing of w1; `check` proves it. */
  list?: (body: unknown) => boolean;
  /** Rows whose "other workspace" case does not apply (personal or server-wide routes). */
  noOther?: boolean;
}

const rows: Row[] = [
  {
    name: "GET /api/v1/cards",
    handler: cardsList.GET,
    method: "GET",
    needs: "viewer",
    call: async () => ({ url: "/api/v1/cards" }),
    list: (b) => (b as { cards: { workspace: { id: string } }[] }).cards.every((c) => c.workspace.id !== "w1"),
  },
  {
    name: "GET /api/v1/cards/count",
    handler: cardsCount.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/cards/count" }),
    list: (b) => (b as { pending: number }).pending === 0,
  },
  {
    name: "GET /api/v1/cards/:id",
    handler: cardOne.GET,
    method: "GET",
    needs: "viewer",
    call: async () => {
      const id = await admit();
      return { url: `/api/v1/cards/${id}`, params: { id } };
    },
  },
  {
    name: "POST /api/v1/cards/:id/displayed",
    handler: cardDisplayed.POST,
    method: "POST",
    needs: "viewer",
    call: async () => {
      const id = await admit();
      return { url: `/api/v1/cards/${id}/displayed`, params: { id } };
    },
  },
  {
    name: "POST /api/v1/cards/:id/answer",
    handler: cardAnswer.POST,
    method: "POST",
    needs: "approver",
    call: async () => {
      const id = await admit();
      const [row] = await opened.db
        .select()
        .from((await import("@/db/schema")).cards)
        .where(eq((await import("@/db/schema")).cards.id, id));
      return { url: `/api/v1/cards/${id}/answer`, params: { id }, body: { outcome: "deny", hash: row!.hash } };
    },
  },
  {
    name: "POST /api/v1/cards/:id/undo-remember",
    handler: cardUndo.POST,
    method: "POST",
    needs: "approver",
    call: async () => {
      // A card the approver just answered with "Always allow" (whose rule is no longer in the file: nothing to revoke).
      const id = await admit();
      const schema = await import("@/db/schema");
      await opened.db
        .update(schema.cards)
        .set({
          status: "allowed",
          settledBy: "approver",
          settledAt: new Date(),
          settlement: {
            outcome: "allow",
            remember: "workspace",
            message: null,
            source: "user",
            saved: { level: "exact", rules: ["Bash(git push origin gone)"], store: ".claude/settings.local.json" },
          },
        })
        .where(eq(schema.cards.id, id));
      return { url: `/api/v1/cards/${id}/undo-remember`, params: { id }, body: {} };
    },
  },
  {
    name: "GET /api/v1/entries",
    handler: entries.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/entries?workspace=w1" }),
  },
  {
    name: "GET /api/v1/entries/suggestions",
    handler: entriesSuggest.GET,
    method: "GET",
    needs: "viewer",
    call: async () => ({
      url: `/api/v1/entries/suggestions?workspace=w1&id=${encodeURIComponent((await entry()).id)}`,
    }),
  },
  {
    name: "POST /api/v1/entries/narrow/check",
    handler: entriesNarrowCheck.POST,
    method: "POST",
    needs: "viewer",
    call: async () => {
      const e = await entry();
      return { url: "/api/v1/entries/narrow/check", body: { workspace: "w1", ...e, to: "Bash(npm test:*)" } };
    },
  },
  {
    name: "POST /api/v1/entries/add",
    handler: entriesAdd.POST,
    method: "POST",
    needs: "admin",
    call: () => ({
      url: "/api/v1/entries/add",
      body: {
        workspace: "w1",
        agent: "claude-code",
        scope: "workspace",
        action: "allow",
        rule: `Bash(tool-${crypto.randomUUID().slice(0, 8)}:*)`,
      },
    }),
  },
  {
    name: "POST /api/v1/entries/revoke",
    handler: entriesRevoke.POST,
    method: "POST",
    needs: "admin",
    call: async () => ({ url: "/api/v1/entries/revoke", body: { workspace: "w1", ...(await entry()) } }),
  },
  {
    name: "POST /api/v1/entries/narrow",
    handler: entriesNarrow.POST,
    method: "POST",
    needs: "admin",
    call: async () => ({
      url: "/api/v1/entries/narrow",
      body: { workspace: "w1", ...(await entry()), to: "Bash(npm test:*)" },
    }),
  },
  {
    name: "GET /api/v1/session-entries",
    handler: sessionEntries.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/session-entries?workspace=w1" }),
  },
  {
    name: "POST /api/v1/session-entries",
    handler: sessionEntries.POST,
    method: "POST",
    needs: "admin",
    call: () => ({
      url: "/api/v1/session-entries",
      body: { workspace: "w1", agentSessionId: "s", agent: "claude-code", action: "allow", rule: "Bash(ls:*)" },
    }),
  },
  {
    name: "GET /api/v1/sessions",
    handler: rootSessions.GET,
    method: "GET",
    needs: "viewer",
    call: async () => {
      await admit();
      return { url: "/api/v1/sessions" };
    },
    list: (b) => (b as { sessions: { workspace: { id: string } }[] }).sessions.every((s) => s.workspace.id !== "w1"),
  },
  {
    name: "POST /api/v1/sessions/:root/release",
    handler: release.POST,
    method: "POST",
    needs: "admin",
    call: () => ({ url: "/api/v1/sessions/r1/release", params: { rootSessionId: "r1" }, body: { workspace: "w1" } }),
  },
  {
    name: "PUT /api/v1/settings/absence",
    handler: absence.PUT,
    method: "PUT",
    needs: "adminAll",
    noOther: true,
    call: () => ({ url: "/api/v1/settings/absence", body: { timeoutSeconds: null } }),
  },
  {
    name: "GET /api/v1/webhooks",
    handler: webhooks.GET,
    method: "GET",
    needs: "admin",
    call: async () => {
      await endpoint();
      return { url: "/api/v1/webhooks" };
    },
    list: (b) => (b as { endpoints: { workspaceId: string | null }[] }).endpoints.every((e) => e.workspaceId !== "w1"),
  },
  {
    name: "POST /api/v1/webhooks",
    handler: webhooks.POST,
    method: "POST",
    needs: "admin",
    call: () => ({ url: "/api/v1/webhooks", body: { url: "http://127.0.0.1:9/hook", workspace: "w1" } }),
  },
  {
    name: "GET /api/v1/webhooks/:id",
    handler: webhookOne.GET,
    method: "GET",
    needs: "admin",
    call: async () => {
      const id = await endpoint();
      return { url: `/api/v1/webhooks/${id}`, params: { id } };
    },
  },
  {
    name: "PATCH /api/v1/webhooks/:id",
    handler: webhookOne.PATCH,
    method: "PATCH",
    needs: "admin",
    call: async () => {
      const id = await endpoint();
      return { url: `/api/v1/webhooks/${id}`, params: { id }, body: { enabled: false } };
    },
  },
  {
    name: "DELETE /api/v1/webhooks/:id",
    handler: webhookOne.DELETE,
    method: "DELETE",
    needs: "admin",
    call: async () => {
      const id = await endpoint();
      return { url: `/api/v1/webhooks/${id}`, params: { id } };
    },
  },
  {
    name: "GET /api/v1/webhooks/:id/deliveries",
    handler: webhookDeliveries.GET,
    method: "GET",
    needs: "admin",
    call: async () => {
      const id = await endpoint();
      return { url: `/api/v1/webhooks/${id}/deliveries`, params: { id } };
    },
  },
  {
    name: "PUT /api/v1/notify/allow-hosts",
    handler: allowHosts.PUT,
    method: "PUT",
    needs: "adminAll",
    noOther: true,
    call: () => ({ url: "/api/v1/notify/allow-hosts", body: { hosts: ["127.0.0.1"] } }),
  },
  {
    name: "GET /api/v1/agent-tokens",
    handler: agentTokens.GET,
    method: "GET",
    needs: "admin",
    call: async () => {
      await createAgentToken({ db: opened.db, actor: LOCAL, input: { workspaceId: "w1" } });
      return { url: "/api/v1/agent-tokens" };
    },
    list: (b) => (b as { tokens: { workspaceId: string }[] }).tokens.every((t) => t.workspaceId !== "w1"),
  },
  {
    name: "POST /api/v1/agent-tokens",
    handler: agentTokens.POST,
    method: "POST",
    needs: "admin",
    call: () => ({ url: "/api/v1/agent-tokens", body: { workspace: "w1" } }),
  },
  {
    name: "DELETE /api/v1/agent-tokens/:id",
    handler: agentTokenOne.DELETE,
    method: "DELETE",
    needs: "admin",
    call: async () => {
      const { id } = await createAgentToken({ db: opened.db, actor: LOCAL, input: { workspaceId: "w1" } });
      return { url: `/api/v1/agent-tokens/${id}`, params: { id } };
    },
  },
  {
    name: "GET /api/v1/workspaces",
    handler: workspacesRoute.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/workspaces" }),
    list: (b) => (b as { workspaces: { id: string }[] }).workspaces.every((w) => w.id !== "w1"),
  },
  {
    name: "GET /api/v1/workspaces/:id",
    handler: workspaceOne.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/workspaces/w1", params: { id: "w1" } }),
  },
  {
    name: "POST /api/v1/workspaces",
    handler: workspacesRoute.POST,
    method: "POST",
    needs: "adminAll",
    noOther: true,
    call: () => {
      const dir = path.join(root, `ws-${crypto.randomUUID()}`);
      mkdirSync(dir);
      return { url: "/api/v1/workspaces", body: { path: dir } };
    },
  },
  {
    name: "POST /api/v1/invites",
    handler: invitesRoute.POST,
    method: "POST",
    needs: "admin",
    call: () => ({ url: "/api/v1/invites", body: { role: "viewer", workspaces: ["w1"] } }),
  },
  {
    name: "DELETE /api/v1/invites/:id",
    handler: inviteOne.DELETE,
    method: "DELETE",
    needs: "admin",
    call: async () => {
      const invite = await createInvite({
        db: opened.db,
        actor: asOwner(),
        input: { role: "viewer", workspaces: ["w1"] },
        baseUrl: "x",
      });
      return { url: "/x", params: { id: invite.id } };
    },
  },
  {
    name: "GET /api/v1/collaborators",
    handler: collaborators.GET,
    method: "GET",
    needs: "admin",
    call: () => ({ url: "/api/v1/collaborators" }),
    list: (b) => !(b as { collaborators: { id: string }[] }).collaborators.some((c) => c.id === userIds.viewer),
  },
  {
    name: "PATCH /api/v1/collaborators/:id",
    handler: collaboratorOne.PATCH,
    method: "PATCH",
    needs: "admin",
    call: async () => {
      const id = await collaborator();
      return {
        url: `/api/v1/collaborators/${id}`,
        params: { id },
        body: { roles: [{ workspace: "w1", role: "approver" }] },
      };
    },
  },
  {
    name: "DELETE /api/v1/collaborators/:id",
    handler: collaboratorOne.DELETE,
    method: "DELETE",
    needs: "admin",
    call: async () => {
      const id = await collaborator();
      return { url: `/api/v1/collaborators/${id}`, params: { id } };
    },
  },
  {
    name: "POST /api/v1/pair",
    handler: pair.POST,
    method: "POST",
    needs: "owner",
    noOther: true,
    call: () => ({ url: "/api/v1/pair" }),
  },
  {
    name: "POST /api/local/login-link",
    handler: loginLink.POST,
    method: "POST",
    needs: "owner",
    noOther: true,
    call: () => ({ url: "/api/local/login-link" }),
  },
  {
    name: "POST /api/local/store-writes",
    handler: storeWrites.POST,
    method: "POST",
    needs: "owner",
    noOther: true,
    call: () => {
      // The audit row of a store write the CLI made: the file as it is on disk now.
      const file = path.join(f.workspace, ".claude", "settings.json");
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ permissions: { allow: [] } }));
      const line = { version: createHash("sha256").update(readFileSync(file)).digest("hex"), line: 1, text: "" };
      return {
        url: "/api/local/store-writes",
        body: {
          workspace: f.workspace,
          change: "entry.revoked",
          entryId: "gone",
          entryAction: "allow",
          rule: "Bash(npm:*)",
          result: { store: file, scope: "workspace", before: line, after: line },
        },
      };
    },
  },
  {
    name: "GET /api/v1/me",
    handler: meRoute.GET,
    method: "GET",
    needs: "viewer",
    noOther: true,
    call: () => ({ url: "/api/v1/me" }),
  },
  {
    name: "GET /api/v1/notify/push",
    handler: push.GET,
    method: "GET",
    needs: "viewer",
    noOther: true,
    call: () => ({ url: "/api/v1/notify/push" }),
  },
  {
    name: "GET /api/v1/devices",
    handler: devices.GET,
    method: "GET",
    needs: "viewer",
    noOther: true,
    call: () => ({ url: "/api/v1/devices" }),
  },
  {
    name: "GET /api/v1/invites",
    handler: invitesRoute.GET,
    method: "GET",
    needs: "admin",
    call: async () => {
      await createInvite({
        db: opened.db,
        actor: asOwner(),
        input: { role: "viewer", workspaces: ["w1"] },
        baseUrl: "x",
      });
      return { url: "/api/v1/invites" };
    },
    list: (b) =>
      (b as { invites: { workspaces: string[] | "all" }[] }).invites.every((i) => !i.workspaces.includes("w1")),
  },
  {
    name: "GET /api/v1/notify/allow-hosts",
    handler: allowHosts.GET,
    method: "GET",
    needs: "adminAll",
    noOther: true,
    call: () => ({ url: "/api/v1/notify/allow-hosts" }),
  },
  {
    name: "GET /api/v1/settings/absence",
    handler: absence.GET,
    method: "GET",
    needs: "adminAll",
    noOther: true,
    call: () => ({ url: "/api/v1/settings/absence" }),
  },
  {
    name: "POST /api/v1/notify/push",
    handler: push.POST,
    method: "POST",
    needs: "viewer",
    noOther: true,
    call: () => {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      return {
        url: "/api/v1/notify/push",
        body: {
          endpoint: `http://127.0.0.1:9/push/${crypto.randomUUID()}`,
          keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
        },
      };
    },
  },
  {
    name: "DELETE /api/v1/notify/push",
    handler: push.DELETE,
    method: "DELETE",
    needs: "viewer",
    noOther: true,
    call: () => ({ url: "/api/v1/notify/push", body: { endpoint: "http://127.0.0.1:9/push/none" } }),
  },
  {
    name: "POST /api/v1/webhooks/:id/test",
    handler: webhookTest.POST,
    method: "POST",
    needs: "admin",
    call: async () => {
      const id = await endpoint();
      return { url: `/api/v1/webhooks/${id}/test`, params: { id } };
    },
  },
  {
    name: "POST /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver",
    handler: redeliver.POST,
    method: "POST",
    needs: "admin",
    call: async () => {
      const id = await endpoint();
      const cardId = await admit();
      const deliveryId = crypto.randomUUID();
      await opened.db.insert(notifyDeliveries).values({
        id: deliveryId,
        endpointId: id,
        cardId,
        eventType: "card.admitted",
        msgId: `msg_${deliveryId}`,
        eventAt: new Date(),
        status: "failed",
      });
      return { url: "/x", params: { id, deliveryId } };
    },
  },
  {
    name: "DELETE /api/v1/workspaces/:id",
    handler: workspaceOne.DELETE,
    method: "DELETE",
    needs: "adminAll",
    noOther: true,
    call: async () => {
      const dir = path.join(root, `gone-${crypto.randomUUID()}`);
      mkdirSync(dir);
      const id = crypto.randomUUID();
      await opened.db.insert(workspaces).values({ id, path: dir, name: "gone" });
      return { url: `/api/v1/workspaces/${id}`, params: { id } };
    },
  },
  {
    name: "GET /api/v1/passkeys",
    handler: passkeysRoute.GET,
    method: "GET",
    needs: "viewer",
    noOther: true,
    call: () => ({ url: "/api/v1/passkeys" }),
  },
  {
    name: "POST /api/v1/passkeys/options",
    handler: passkeyOptionsRoute.POST,
    method: "POST",
    needs: "viewer",
    noOther: true,
    call: () => ({ url: "/api/v1/passkeys/options" }),
  },
  {
    name: "POST /api/v1/passkeys",
    handler: passkeysRoute.POST,
    method: "POST",
    needs: "viewer",
    noOther: true,
    call: async () => {
      const options = await passkeyRegistrationOptions({
        db: opened.db,
        actor: (await actorFromSessionToken(opened.db, cookies.viewer))!,
      });
      return { url: "/api/v1/passkeys", body: { name: "key", response: new SoftAuthenticator().register(options) } };
    },
  },
  {
    name: "PATCH /api/v1/passkeys/:id",
    handler: passkeyOne.PATCH,
    method: "PATCH",
    needs: "viewer",
    noOther: true,
    call: async () => ({ url: "/x", params: { id: await fakePasskey(userIds.viewer) }, body: { name: "renamed" } }),
  },
  {
    name: "DELETE /api/v1/passkeys/:id",
    handler: passkeyOne.DELETE,
    method: "DELETE",
    needs: "viewer",
    noOther: true,
    call: async () => {
      // The role matrix, not the step-up (app/api/v1/passkeys/doors.test.ts): the viewer just confirmed.
      await opened.db
        .update(sessions)
        .set({ steppedUpAt: new Date() })
        .where(eq(sessions.tokenHash, hashToken(cookies.viewer!)));
      return { url: "/x", params: { id: await fakePasskey(userIds.viewer) } };
    },
  },
  {
    name: "POST /api/v1/cards/:id/passkey-options",
    handler: cardPasskeyOptions.POST,
    method: "POST",
    needs: "approver",
    call: async () => {
      await fakePasskey(userIds.approver);
      const id = await admit();
      return { url: "/x", params: { id }, body: { outcome: "allow" } };
    },
  },
  {
    name: "POST /api/v1/passkeys/step-up",
    handler: stepUpRoute.POST,
    method: "POST",
    needs: "viewer",
    noOther: true,
    call: async () => {
      await fakePasskey(userIds.viewer);
      return { url: "/x", body: {} };
    },
  },
  {
    name: "POST /api/v1/audit/verify",
    handler: auditVerify.POST,
    method: "POST",
    needs: "adminAll",
    noOther: true,
    call: () => ({ url: "/api/v1/audit/verify", body: {} }),
  },
  {
    name: "GET /api/v1/audit",
    handler: auditList.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/audit?workspace=w1" }),
  },
  {
    name: "GET /api/v1/audit/export",
    handler: auditExport.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/audit/export?format=jsonl&workspace=w1" }),
  },
  {
    name: "GET /api/v1/audit/histogram",
    handler: auditHistogram.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/audit/histogram?workspace=w1" }),
  },
  {
    name: "POST /api/v1/audit/import",
    handler: auditImport.POST,
    method: "POST",
    needs: "owner",
    noOther: true,
    call: () => ({ url: "/api/v1/audit/import", body: { workspace: "w1", source: "mevedel", entries: [] } }),
  },
  {
    name: "POST /api/v1/entries/impact",
    handler: entriesImpact.POST,
    method: "POST",
    needs: "viewer",
    call: async () => ({ url: "/api/v1/entries/impact", body: { workspace: "w1", id: (await entry()).id } }),
  },
  {
    name: "GET /api/v1/entries/hygiene",
    handler: entriesHygiene.GET,
    method: "GET",
    needs: "viewer",
    call: () => ({ url: "/api/v1/entries/hygiene?workspace=w1" }),
  },
  {
    name: "POST /api/v1/entries/clean-up",
    handler: entriesCleanUp.POST,
    method: "POST",
    needs: "admin",
    // With `confirm` it writes (admin there); the preview alone needs only a viewer (the hygiene row's role).
    call: () => ({ url: "/api/v1/entries/clean-up", body: { workspace: "w1", confirm: {} } }),
  },
  {
    name: "PUT /api/v1/workspaces/:id/settings",
    handler: workspaceSettings.PUT,
    method: "PUT",
    needs: "admin",
    call: () => ({ url: "/x", params: { id: "w1" }, body: { requirePasskey: false } }),
  },
];

/** The role just below what a route needs, the role that is enough, and who is "another workspace's admin". */
const tooLow: Record<Needed, Who> = {
  viewer: "nobody",
  approver: "viewer",
  admin: "approver",
  adminAll: "admin",
  owner: "adminAll",
};
const enough: Record<Needed, Who> = {
  viewer: "viewer",
  approver: "approver",
  admin: "admin",
  adminAll: "adminAll",
  owner: "owner",
};

describe("every person route × role", () => {
  it.each(rows.map((r) => [r.name, r] as const))("%s", async (_name, row) => {
    const anon = await send(row.handler, row.method, "anon", await row.call());
    expect(anon.status, "anonymous").toBe(401);

    const low = await send(row.handler, row.method, tooLow[row.needs], await row.call());
    expect(low.status, `${tooLow[row.needs]} is too low`).toBe(403);
    const reason = ((await low.json()) as { error: string }).error;
    const named = row.needs === "adminAll" ? "admin" : row.needs;
    expect(reason, "the refusal names the role needed").toContain(named === "owner" ? "owner" : `${named} role`);

    const ok = await send(row.handler, row.method, enough[row.needs], await row.call());
    expect(
      ok.status,
      `${enough[row.needs]} is enough: ${ok.status === 200 ? "" : await ok.clone().text()}`,
    ).toBeLessThan(300);

    if (!row.noOther) {
      const other = await send(row.handler, row.method, "adminW2", await row.call());
      if (row.list) {
        expect(other.status).toBe(200);
        expect(row.list(await other.json()), "another workspace's admin sees nothing of w1").toBe(true);
      } else expect([403, 404], "another workspace's admin").toContain(other.status);
    }
  });

  it("the event stream answers the right role and refuses the others", async () => {
    expect(
      (await send((await import("@/app/api/v1/events/route")).GET, "GET", "anon", { url: "/api/v1/events" })).status,
    ).toBe(401);
    expect(
      (await send((await import("@/app/api/v1/events/route")).GET, "GET", "nobody", { url: "/api/v1/events" })).status,
    ).toBe(403);
    const res = await send((await import("@/app/api/v1/events/route")).GET, "GET", "viewer", { url: "/api/v1/events" });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });

  it("ending a session: your own, or as an admin over that person; not someone else's otherwise", async () => {
    const mine = await opened.db.transaction((tx) => openSession(tx, { userId: userIds.viewer, signIn: "link" }));
    const byViewer = await send(deviceOne.DELETE, "DELETE", "viewer", { url: "/x", params: { id: mine.sessionId } });
    expect(byViewer.status).toBe(200);
    const theirs = await opened.db.transaction((tx) => openSession(tx, { userId: userIds.approver, signIn: "link" }));
    expect(
      (await send(deviceOne.DELETE, "DELETE", "viewer", { url: "/x", params: { id: theirs.sessionId } })).status,
    ).toBe(403);
    expect(
      (await send(deviceOne.DELETE, "DELETE", "adminW2", { url: "/x", params: { id: theirs.sessionId } })).status,
    ).toBe(403);
    expect(
      (await send(deviceOne.DELETE, "DELETE", "admin", { url: "/x", params: { id: theirs.sessionId } })).status,
    ).toBe(200);
    const ownerSession = await opened.db.transaction((tx) =>
      openSession(tx, { userId: userIds.owner, signIn: "link" }),
    );
    expect(
      (await send(deviceOne.DELETE, "DELETE", "adminAll", { url: "/x", params: { id: ownerSession.sessionId } }))
        .status,
    ).toBe(403);
  });

  it("nobody changes or removes the owner", async () => {
    const owner = userIds.owner;
    expect(
      (await send(collaboratorOne.DELETE, "DELETE", "adminAll", { url: "/x", params: { id: owner } })).status,
    ).toBe(403);
    const patch = await send(collaboratorOne.PATCH, "PATCH", "owner", {
      url: "/x",
      params: { id: owner },
      body: { roles: [] },
    });
    expect(patch.status).toBe(403);
  });

  it("logout ends the session: the same cookie is refused afterwards", async () => {
    const s = await opened.db.transaction((tx) => openSession(tx, { userId: userIds.viewer, signIn: "link" }));
    const saved = cookies.viewer;
    cookies.viewer = s.sessionToken;
    try {
      const out = await send(logout.POST, "POST", "viewer", { url: "/api/auth/logout" });
      expect(out.status).toBe(200);
      expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
      expect((await send(meRoute.GET, "GET", "viewer", { url: "/api/v1/me" })).status).toBe(401);
    } finally {
      cookies.viewer = saved;
    }
  });
});
