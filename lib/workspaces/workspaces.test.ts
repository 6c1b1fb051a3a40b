import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenedDb } from "@/db/client";
import { detectAgentStores } from "./agent-stores";
import { addWorkspace, listWorkspaces, removeWorkspace } from "./workspaces";
import * as workspacesRoute from "@/app/api/v1/workspaces/route";
import { NextRequest } from "next/server";
import { setServerDb } from "@/db/client";
import { env } from "@/lib/config/env";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";

const LOCAL_ACTOR = { kind: "local", name: "local-cli" } as const;
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

  it("refuses /, the home folder, the data folder, a folder inside it and a folder that contains it", async () => {
    const home = path.join(dir, "home");
    const data = path.join(home, "work", ".cockpit");
    fs.mkdirSync(path.join(data, "sub"), { recursive: true });
    fs.mkdirSync(path.join(home, "project"), { recursive: true });
    const guard = { home, dataDir: data };
    const add = (p: string) => addWorkspace({ db: opened.db, actor: LOCAL_ACTOR, input: { path: p }, guard });
    await expect(add("/")).rejects.toThrow(/filesystem root/);
    await expect(add(home)).rejects.toThrow(/home folder/);
    await expect(add(home + "/")).rejects.toThrow(/home folder/);
    await expect(add(data)).rejects.toThrow(/inside the cockpit's data folder/);
    await expect(add(path.join(data, "sub"))).rejects.toThrow(/inside the cockpit's data folder/);
    await expect(add(path.join(home, "work"))).rejects.toThrow(/contains the cockpit's data folder/);
    // A symlink to a protected folder is resolved first.
    fs.symlinkSync(path.join(home, "work"), path.join(dir, "alias"));
    await expect(add(path.join(dir, "alias"))).rejects.toThrow(/contains the cockpit's data folder/);
    const ok = await add(path.join(home, "project"));
    expect(ok.path).toBe(fs.realpathSync(path.join(home, "project")));
    await removeWorkspace({ db: opened.db, actor: LOCAL_ACTOR, input: { idOrPath: ok.id } });
  });

  it("POST /api/v1/workspaces (what `cockpit workspace add` calls) answers 400 with the reason", async () => {
    const LOCAL = "cpc_ws-test-credential";
    process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
    setServerDb(opened);
    const post = (p: string) =>
      workspacesRoute.POST(
        new NextRequest("http://localhost:3000/api/v1/workspaces", {
          method: "POST",
          headers: { authorization: `Bearer ${LOCAL}`, "content-type": "application/json" },
          body: JSON.stringify({ path: p }),
        }),
        { params: Promise.resolve({}) },
      );
    const root = await post("/");
    expect(root.status).toBe(400);
    expect((await root.json()).error).toMatch(/filesystem root/);
    const home = await post(os.homedir());
    expect(home.status).toBe(400);
    expect((await home.json()).error).toMatch(/home folder/);
    // The folder holding the server's data folder (COCKPIT_DATA).
    const cwd = await post(path.dirname(env().dataDir));
    expect(cwd.status).toBe(400);
    expect((await cwd.json()).error).toMatch(/contains the cockpit's data folder/);
  });
});
