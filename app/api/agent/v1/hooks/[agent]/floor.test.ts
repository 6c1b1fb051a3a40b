/**
 * Issue 19 §1, the floor, through Claude Code's HTTP hook: a PermissionRequest whose call an allow rule in Claude
 * Code's own settings seems to cover still becomes a card (Claude Code weighed that rule and asked anyway); a deny
 * rule still answers deny at once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { cards } from "@/db/schema";
import { createAgentToken } from "@/lib/auth/agent-tokens";
import { notifyFixture, type NotifyFixture } from "@/test/support/notify";
import * as hook from "./route";

let opened: OpenedDb;
let f: NotifyFixture;
let root: string;
let token: string;
const savedHome = process.env.HOME;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "hook-floor-"));
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  f = await notifyFixture({ opened, root, workspaceId: "w1" });
  process.env.HOME = f.home;
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  f.allowRule("Bash(npm test)");
  token = (
    await createAgentToken({ db: opened.db, actor: { kind: "local", name: "local-cli" }, input: { workspaceId: "w1" } })
  ).token;
});
afterAll(async () => {
  process.env.HOME = savedHome;
  await f.cleanup();
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

const permissionRequest = (command: string, signal: AbortSignal) =>
  hook.POST(
    new NextRequest(new URL("/api/agent/v1/hooks/claude-code?wait=1", "http://localhost:3000"), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        hook_event_name: "PermissionRequest",
        session_id: "floor-http",
        cwd: f.workspace,
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command },
      }),
      signal,
    }),
    { params: Promise.resolve({ agent: "claude-code" }) },
  );

describe("HTTP hook: Claude Code's ask is a floor", () => {
  it("an allow rule Claude Code already saw makes a card (not an allow); it shows why", async () => {
    const res = await permissionRequest("npm test", AbortSignal.timeout(10_000));
    // The hook waited one second for a person and then handed back to the terminal ({}): it did not allow.
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const [card] = await opened.db.select().from(cards).where(eq(cards.agentSessionId, "floor-http"));
    expect(card!.agentAsked).toBe(true);
    expect(card!.decision.reason).toMatch(/Claude Code asked; no rule of the cockpit's may approve it/);
  });
});
