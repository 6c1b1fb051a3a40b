/** Fixtures for notification tests: a local receiver, an isolated database with a workspace, and card admission. */
import http from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { openDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { ownerActor, roleEverywhere } from "@/test/support/auth";
import { admitCard } from "@/lib/cards";
import type { NotifyEnv } from "@/lib/notify/notify-env";
import { setAllowHosts } from "@/lib/notify/settings";
import { trustClaudeWorkspace } from "@/test/support/stores";

export const ADMIN: Actor = ownerActor({ userId: "u-admin", name: "alice", sessionId: "s1" });
export const VIEWER: Actor = roleEverywhere("viewer", { userId: "u-viewer", name: "vic", sessionId: "s2" });

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

export interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  reply: (req: Received) => Reply | Promise<Reply>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers with `reply` (200 by default). */
export async function startReceiver(reply: Receiver["reply"] = () => ({ status: 200, body: "ok" })): Promise<Receiver> {
  const receiver = { requests: [] as Received[], reply } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const received: Received = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      receiver.requests.push(received);
      const answer = await receiver.reply(received);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}/hook`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export interface NotifyFixture {
  opened: OpenedDb;
  workspaceId: string;
  workspace: string;
  home: string;
  agent: Actor;
  env: NotifyEnv;
  /** Admits a Bash call as a pending card (no rules exist, so every call asks) and returns its id. */
  admit(command: string, sessionId?: string): Promise<string>;
  /** Adds a rule file so admission settles matching calls by policy (no card). */
  allowRule(rule: string): void;
  cleanup(): Promise<void>;
}

export async function notifyFixture(
  options: {
    dataDir?: string;
    opened?: OpenedDb;
    env?: NotifyEnv;
    allow?: string[];
    workspaceId?: string;
    root?: string;
  } = {},
): Promise<NotifyFixture> {
  const root = options.root ?? mkdtempSync(path.join(os.tmpdir(), "notify-"));
  const workspace = path.join(root, "project");
  const home = path.join(root, "home");
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  // Claude Code applies the workspace's allow rules (allowRule below) only in a trusted folder.
  trustClaudeWorkspace(home, workspace);
  const opened = options.opened ?? (await openDb({ kind: "embedded", dataDir: options.dataDir }));
  const workspaceId = options.workspaceId ?? crypto.randomUUID();
  await opened.db
    .insert(workspaces)
    .values({ id: workspaceId, path: workspace, name: "project" })
    .onConflictDoNothing();
  await setAllowHosts({ db: opened.db, actor: ADMIN, input: { hosts: options.allow ?? ["127.0.0.1"] } });
  const agent: Actor = { kind: "agent", tokenId: "t1", workspaceId, name: "test-agent" };
  const cardEnv = { home, managedSettingsPath: null };
  return {
    opened,
    workspaceId,
    workspace,
    home,
    agent,
    env: { envAllowHosts: [], publicUrl: "https://cockpit.example", ...options.env },
    async admit(command, sessionId = "sess-1") {
      const result = await admitCard({
        db: opened.db,
        actor: agent,
        workspaceId,
        input: { agent: "claude-code", sessionId, tool: "Bash", input: { command } },
        env: cardEnv,
      });
      if (result.status !== "pending") throw new Error(`expected a pending card for ${command}, got ${result.status}`);
      return result.id;
    },
    allowRule(rule) {
      mkdirSync(path.join(workspace, ".claude"), { recursive: true });
      writeFileSync(
        path.join(workspace, ".claude", "settings.json"),
        JSON.stringify({ permissions: { allow: [rule] } }),
      );
    },
    async cleanup() {
      if (!options.opened) await opened.close();
      if (!options.root) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` passes or the time runs out. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
