/** Fixtures for card tests: an in-memory database, a temp workspace with HOME inside it, and actors. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { ownerActor, roleEverywhere } from "@/test/support/auth";
import type { CardEnv } from "@/lib/cards/policy";
import { trustClaudeWorkspace } from "@/test/support/stores";

export const OWNER: Actor = ownerActor({ userId: "u1", name: "alice", sessionId: "s" });
export const VIEWER: Actor = roleEverywhere("viewer", { userId: "u2", name: "vic", sessionId: "s2" });

export interface CardFixture {
  opened: OpenedDb;
  workspaceId: string;
  workspace: string;
  home: string;
  agent: Actor;
  env: CardEnv & { clock: { now: Date } };
  write(rel: string, text: string): void;
  read(rel: string): string;
  cleanup(): Promise<void>;
}

/**
 * `trusted` (default true): Claude Code's trust dialog was accepted for the workspace, as for any interactive
 * session (recorded in `~/.claude.json`); without it the workspace's Claude Code allow rules are held back.
 */
export async function cardFixture(
  options: { dataDir?: string; opened?: OpenedDb; trusted?: boolean } = {},
): Promise<CardFixture> {
  const root = mkdtempSync(path.join(os.tmpdir(), "cards-"));
  const workspace = path.join(root, "project");
  const home = path.join(root, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  if (options.trusted !== false) trustClaudeWorkspace(home, workspace);
  const opened = options.opened ?? (await openDb({ kind: "embedded", dataDir: options.dataDir }));
  const workspaceId = crypto.randomUUID();
  await opened.db.insert(workspaces).values({ id: workspaceId, path: workspace, name: "project" });
  const clock = { now: new Date("2026-01-01T10:00:00Z") };
  return {
    opened,
    workspaceId,
    workspace,
    home,
    agent: { kind: "agent", tokenId: "t1", workspaceId, name: "test-agent" },
    // Each reading advances a millisecond so admissions keep their order.
    env: { home, managedSettingsPath: null, now: () => (clock.now = new Date(clock.now.getTime() + 1)), clock },
    write(rel, text) {
      const file = path.join(workspace, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    },
    read: (rel) => readFileSync(path.join(workspace, rel), "utf8"),
    async cleanup() {
      if (!options.opened) await opened.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export const bash = (command: string, sessionId = "sess-1", extra: Record<string, unknown> = {}) => ({
  agent: "claude-code" as const,
  sessionId,
  tool: "Bash",
  input: { command },
  ...extra,
});
