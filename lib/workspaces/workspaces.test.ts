import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenedDb } from "@/db/client";
import { detectAgentStores } from "./agent-stores";
import { addWorkspace, listWorkspaces, removeWorkspace } from "./workspaces";

let opened: OpenedDb;
let dir: string;
beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-ws-"));
});
afterAll(async () => {
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("workspaces", () => {
  it("adds, lists and removes a folder, and refuses duplicates", async () => {
    const ws = await addWorkspace({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" } as const,
      input: { path: dir },
    });
    expect(ws.path).toBe(fs.realpathSync(dir));
    await expect(
      addWorkspace({ db: opened.db, actor: { kind: "local", name: "local-cli" } as const, input: { path: dir } }),
    ).rejects.toThrow(/already registered/);
    expect((await listWorkspaces(opened.db)).map((w) => w.id)).toEqual([ws.id]);
    await removeWorkspace({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" } as const,
      input: { idOrPath: dir },
    });
    expect(await listWorkspaces(opened.db)).toEqual([]);
  });
  it("rejects a missing path and a file", async () => {
    await expect(
      addWorkspace({
        db: opened.db,
        actor: { kind: "local", name: "local-cli" } as const,
        input: { path: path.join(dir, "nope") },
      }),
    ).rejects.toThrow(/does not exist/);
    const file = path.join(dir, "f.txt");
    fs.writeFileSync(file, "x");
    await expect(
      addWorkspace({ db: opened.db, actor: { kind: "local", name: "local-cli" } as const, input: { path: file } }),
    ).rejects.toThrow(/is not a folder/);
  });
  it("detects agent stores", () => {
    fs.mkdirSync(path.join(dir, ".claude"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".claude/settings.json"), "{}");
    const found = detectAgentStores(dir)
      .filter((s) => s.exists)
      .map((s) => s.file);
    expect(found).toEqual([".claude/settings.json"]);
  });
});
