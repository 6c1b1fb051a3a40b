import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import { globalConfigPath, projectConfigPaths } from "../paths";
import { findGitRoot, loadCursorStores } from "./stores";

describe("globalConfigPath (configuration docs, File location)", () => {
  it.each([
    [{}, "linux", "/home/u/.cursor/cli-config.json", "home"],
    [{ XDG_CONFIG_HOME: "/home/u/.config" }, "linux", "/home/u/.config/cursor/cli-config.json", "XDG_CONFIG_HOME"],
    [{ XDG_CONFIG_HOME: "/home/u/.config" }, "darwin", "/home/u/.cursor/cli-config.json", "home"],
    [{ XDG_CONFIG_HOME: "relative" }, "linux", "/home/u/.cursor/cli-config.json", "home"],
    [
      { CURSOR_CONFIG_DIR: "/etc/cur", XDG_CONFIG_HOME: "/x" },
      "linux",
      "/etc/cur/cli-config.json",
      "CURSOR_CONFIG_DIR",
    ],
  ])("%j on %s → %s", (env, platform, want, via) => {
    expect(globalConfigPath({ home: "/home/u", env, platform })).toEqual({ path: want, via });
  });
});

describe("projectConfigPaths: every .cursor/cli.json from the git root down to cwd", () => {
  it("outermost first", () => {
    expect(projectConfigPaths("/r", "/r/a/b")).toEqual([
      "/r/.cursor/cli.json",
      "/r/a/.cursor/cli.json",
      "/r/a/b/.cursor/cli.json",
    ]);
  });
  it("without a root, or outside it, only cwd's own file", () => {
    expect(projectConfigPaths(null, "/r/a")).toEqual(["/r/a/.cursor/cli.json"]);
    expect(projectConfigPaths("/r", "/elsewhere")).toEqual(["/elsewhere/.cursor/cli.json"]);
  });
});

describe("loadCursorStores", () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox("cursor-stores-");
  });
  afterEach(() => sb.cleanup());

  it("lists the global file and each project file from the git root to cwd, missing ones included", async () => {
    mkdirSync(path.join(sb.workspace, ".git"));
    sb.write(
      "~/.cursor/cli-config.json",
      JSON.stringify({ version: 1, permissions: { allow: ["Shell(ls)"], deny: [] } }),
    );
    sb.write(".cursor/cli.json", JSON.stringify({ permissions: { deny: ["Shell(rm)"] } }));
    sb.write("pkg/app/.cursor/cli.json", "{ broken");
    const stores = await loadCursorStores({
      workspace: sb.workspace,
      cwd: path.join(sb.workspace, "pkg/app"),
      home: sb.home,
    });
    expect(await findGitRoot(path.join(sb.workspace, "pkg/app"))).toBe(sb.workspace);
    expect(stores.map((s) => [path.relative(sb.root, s.path), s.scope, s.exists, s.valid])).toEqual([
      ["home/.cursor/cli-config.json", "global", true, true],
      ["project/.cursor/cli.json", "workspace", true, true],
      ["project/pkg/.cursor/cli.json", "workspace", false, true],
      ["project/pkg/app/.cursor/cli.json", "workspace", true, false],
    ]);
    expect(stores[0].rules[0]).toMatchObject({ text: "Shell(ls)", scope: "global", line: 1 });
    expect(stores[3].error).toMatch(/not valid JSON/);
    expect(stores[2].version).toBe("missing");
  });

  it("honours XDG_CONFIG_HOME for the global file", async () => {
    const xdg = path.join(sb.home, ".config");
    sb.write("~/.config/cursor/cli-config.json", JSON.stringify({ permissions: { allow: ["Shell(git)"] } }));
    const [global] = await loadCursorStores({
      workspace: sb.workspace,
      home: sb.home,
      env: { XDG_CONFIG_HOME: xdg },
      platform: "linux",
    });
    expect(global).toMatchObject({ path: path.join(xdg, "cursor", "cli-config.json"), valid: true, writable: true });
    expect(global.rules.map((r) => r.text)).toEqual(["Shell(git)"]);
  });

  it("a FIFO in place of cli.json is listed invalid, not read", async () => {
    const { execFileSync } = await import("node:child_process");
    mkdirSync(path.join(sb.workspace, ".cursor"));
    execFileSync("mkfifo", [path.join(sb.workspace, ".cursor", "cli.json")]);
    const [, project] = await loadCursorStores({ workspace: sb.workspace, home: sb.home });
    expect(project).toMatchObject({ valid: false, writable: false, error: expect.stringMatching(/named pipe/) });
  });
});
