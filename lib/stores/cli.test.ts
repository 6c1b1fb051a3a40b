import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";
import type { Entry } from "./types";
import { runCli as cli } from "@/test/support/cli";

let sb: Sandbox;
const saved = { HOME: process.env.HOME, MANAGED: process.env.COCKPIT_MANAGED_SETTINGS };
beforeEach(() => {
  sb = makeSandbox("cli-");
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = path.join(sb.root, "no-managed.json");
});
afterEach(() => {
  process.env.HOME = saved.HOME;
  if (saved.MANAGED === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = saved.MANAGED;
  sb.cleanup();
});

const entriesJson = async (...extra: string[]) =>
  JSON.parse((await cli("entries", "--workspace", sb.workspace, "--json", ...extra)).out) as Entry[];

describe("cockpit entries / revoke / narrow / add", () => {
  it("lists entries as JSON per the contract, including invalid stores", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    sb.write(".mevedel/permissions.el", "(:rules (oops");
    const all = await entriesJson();
    // The five entries, then one element for the invalid plist (it contributes no entries).
    expect(all).toHaveLength(6);
    const broken = all.filter((e) => !e.store.valid);
    expect(broken).toEqual([
      expect.objectContaining({
        kind: "store",
        agent: "mevedel",
        action: null,
        rule: null,
        error: expect.stringMatching(/^line 1, column \d+/),
        store: expect.objectContaining({
          path: path.join(sb.workspace, ".mevedel/permissions.el"),
          valid: false,
          error: expect.stringMatching(/^line 1/),
        }),
      }),
    ]);
    expect(all.filter((e) => e.store.valid)).toHaveLength(5);
    for (const e of all) {
      expect(Object.keys(e)).toEqual(
        expect.arrayContaining(["id", "scope", "kind", "agent", "action", "rule", "store", "line", "writable"]),
      );
      expect(Object.keys(e.store)).toEqual(expect.arrayContaining(["path", "format", "version", "valid"]));
    }
    const withStores = JSON.parse((await cli("entries", "--workspace", sb.workspace, "--json", "--stores")).out);
    expect(withStores.stores.find((s: { valid: boolean }) => !s.valid)).toMatchObject({
      format: "mevedel-plist",
      error: expect.stringMatching(/^line 1, column \d+/),
    });
    const table = await cli("entries", "--workspace", sb.workspace);
    expect(table.out).toMatch(/WORKSPACE\n/);
    expect(table.out).toContain("INVALID: line 1");
    expect((await entriesJson("--agent", "mevedel")).map((e) => e.kind)).toEqual(["store"]);
    expect((await entriesJson("--agent", "claude-code")).every((e) => e.store.valid)).toBe(true);
    expect((await cli("entries", "--workspace", sb.workspace, "--agent", "vim")).code).toBe(2);
    expect((await cli("entries", "--bogus")).code).toBe(2);
  });

  it("revokes, reporting the line and the global warning; refusals exit 1 with one line", async () => {
    sb.write("~/.claude/settings.json", FIXTURES.claudeCrlf3);
    const [first] = await entriesJson("--scope", "global");
    const ok = await cli("revoke", first.id, "--workspace", sb.workspace);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`revoked in ${sb.abs("~/.claude/settings.json")} (global)`);
    expect(ok.out).toContain('line 4 before: "Bash(git status:*)",');
    expect(ok.out).toMatch(/affects every project/);
    const again = await cli("revoke", first.id, "--workspace", sb.workspace);
    expect(again.code).toBe(1);
    expect(again.err.trim().split("\n")).toHaveLength(1);
    const [next] = await entriesJson();
    const stale = await cli("revoke", next.id, "--workspace", sb.workspace, "--version", "0".repeat(64));
    expect(stale).toMatchObject({ code: 1 });
    expect(stale.err).toContain("changed on disk — refresh");
    expect((await cli("revoke", "--workspace", sb.workspace)).code).toBe(2);
  });

  it("--dry-run names the file and line and writes nothing", async () => {
    sb.write("~/.mevedel/permissions.el", FIXTURES.mevedel);
    const grant = (await entriesJson()).find((e) => e.kind === "grant")!;
    const dry = await cli("revoke", grant.id, "--workspace", sb.workspace, "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("would be revoked (dry run, nothing written)");
    expect(dry.out).toContain('line 13 before: ((:path "~/notes" :access read)');
    expect(dry.out).toMatch(/affects every project/);
    const add = await cli(
      "add",
      "--workspace",
      sb.workspace,
      "--agent",
      "mevedel",
      "--scope",
      "global",
      "--action",
      "deny",
      "--rule",
      '("Bash" :pattern "sudo *")',
      "--dry-run",
    );
    expect(add.out).toContain('after:  ("Bash" :pattern "sudo *" :action deny))');
    expect(sb.read("~/.mevedel/permissions.el")).toBe(FIXTURES.mevedel);
  });

  it("write verbs sweep temp files left by dead writers first", async () => {
    const file = sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    const stale = path.join(path.dirname(file), `.settings.json.cockpit-tmp-${2 ** 22 + 7}-0abc`);
    sb.write(stale, "half-written");
    const [first] = await entriesJson();
    expect((await cli("revoke", first.id, "--workspace", sb.workspace)).code).toBe(0);
    const { existsSync } = await import("node:fs");
    expect(existsSync(stale)).toBe(false);
  });

  it("narrows, and refuses what it cannot prove", async () => {
    sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
    const git = (await entriesJson()).find((e) => e.rule === "Shell(git:*)")!;
    const refused = await cli("narrow", git.id, "--to", "Shell(*)", "--workspace", sb.workspace);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^cockpit narrow: cannot prove narrower: .*\n$/);
    const ok = await cli("narrow", git.id, "--to", "Shell(git status:*)", "--workspace", sb.workspace);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('after:  "Shell(git status:*)", // everything git');
    expect((await cli("narrow", git.id, "--workspace", sb.workspace)).code).toBe(2);
    const badSpec = await cli("narrow", (await entriesJson())[0].id, "--to", "Shell(", "--workspace", sb.workspace);
    expect(badSpec.code).toBe(2);
  });

  it("adds workspace and global rules", async () => {
    const ws = await cli(
      "add",
      "--workspace",
      sb.workspace,
      "--agent",
      "mevedel",
      "--scope",
      "workspace",
      "--action",
      "allow",
      "--rule",
      '("Bash" :pattern "make *")',
    );
    expect(ws.code).toBe(0);
    expect(sb.read(".mevedel/permissions.el")).toContain('("Bash" :pattern "make *" :action allow)');
    const global = await cli(
      "add",
      "--workspace",
      sb.workspace,
      "--agent",
      "claude-code",
      "--scope",
      "global",
      "--action",
      "deny",
      "--rule",
      "Bash(rm -rf *)",
    );
    expect(global.out).toMatch(/affects every project/);
    expect(JSON.parse(sb.read("~/.claude/settings.json")).permissions.deny).toEqual(["Bash(rm -rf *)"]);
    const dup = await cli(
      "add",
      "--workspace",
      sb.workspace,
      "--agent",
      "claude-code",
      "--scope",
      "global",
      "--action",
      "deny",
      "--rule",
      "Bash(rm -rf *)",
    );
    expect(dup.out).toMatch(/already present/);
    expect(
      (
        await cli(
          "add",
          "--workspace",
          sb.workspace,
          "--agent",
          "claude-code",
          "--scope",
          "session",
          "--action",
          "deny",
          "--rule",
          "x",
        )
      ).code,
    ).toBe(2);
  });
});

describe("cockpit decide", () => {
  const call = (c: object) => JSON.stringify(c);
  it("prints exactly the contract's keys, using the stores and $HOME", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    sb.write("~/.claude/settings.json", '{"permissions": {"ask": ["Bash(git push *)"]}}');
    const denied = await cli(
      "decide",
      "--workspace",
      sb.workspace,
      "--agent",
      "claude-code",
      "--call",
      call({ tool: "Bash", input: { command: "curl https://x" } }),
    );
    expect(denied.code).toBe(0);
    const d = JSON.parse(denied.out);
    expect(Object.keys(d)).toEqual(["decision", "step", "rule", "scope", "store", "reason"]);
    expect(d).toMatchObject({
      decision: "deny",
      step: "deny-rule",
      rule: "Bash(curl *)",
      scope: "workspace",
      store: sb.abs(".claude/settings.json"),
    });
    const ask = JSON.parse(
      (
        await cli(
          "decide",
          "--workspace",
          sb.workspace,
          "--agent",
          "claude-code",
          "--call",
          call({ tool: "Bash", input: { command: "git push origin main" } }),
        )
      ).out,
    );
    expect(ask).toMatchObject({ decision: "ask", step: "ask-rule", scope: "global" });
    const explained = JSON.parse(
      (
        await cli(
          "decide",
          "--workspace",
          sb.workspace,
          "--agent",
          "claude-code",
          "--explain",
          "--call",
          call({ tool: "Read", input: { file_path: path.join(sb.workspace, "a.txt") } }),
        )
      ).out,
    );
    expect(explained.trace.length).toBeGreaterThan(0);
  });

  // Issue 19 §3: `--cwd DIR` is the agent's current folder; relative call paths and the `/`-anchored rules of
  // .claude/settings.local.json resolve against it (Claude Code: "Local settings rules anchor at the session's
  // primary working directory").
  it("--cwd: relative paths and local /-anchored rules resolve against the agent's folder", async () => {
    sb.write(".claude/settings.local.json", '{"permissions": {"deny": ["Edit(/gen/**)", "Read(./notes.txt)"]}}');
    sb.write("pkg/notes.txt", "x");
    const decideIn = async (cwd: string | null, c: object, mode = "acceptEdits") =>
      JSON.parse(
        (
          await cli(
            "decide",
            "--workspace",
            sb.workspace,
            "--agent",
            "claude-code",
            "--mode",
            mode,
            ...(cwd ? ["--cwd", cwd] : []),
            "--call",
            call(c),
          )
        ).out,
      );
    const editGen = { tool: "Edit", input: { file_path: "gen/a.ts", old_string: "a", new_string: "b" } };
    const pkg = sb.abs("pkg");
    expect(await decideIn(pkg, editGen)).toMatchObject({ decision: "deny", rule: "Edit(/gen/**)" });
    // Without --cwd the agent is at the workspace root: gen/a.ts is <ws>/gen/a.ts, and /gen/** anchors there too.
    expect(await decideIn(null, editGen)).toMatchObject({ decision: "deny", rule: "Edit(/gen/**)" });
    // The same file seen from pkg/ is outside the anchored folder.
    const rootGen = { ...editGen, input: { ...editGen.input, file_path: sb.abs("gen/a.ts") } };
    expect(await decideIn(pkg, rootGen)).toMatchObject({ decision: "allow", step: "accept-edits" });
    expect(await decideIn(pkg, { tool: "Read", input: { file_path: "notes.txt" } }, "default")).toMatchObject({
      decision: "deny",
      rule: "Read(./notes.txt)",
    });
    // From the workspace root, ./notes.txt is <ws>/notes.txt: pkg/notes.txt is not it.
    expect(
      await decideIn(null, { tool: "Read", input: { file_path: sb.abs("pkg/notes.txt") } }, "default"),
    ).toMatchObject({ decision: "allow", step: "read-only" });
  });

  it("takes the mode from the stores unless given", async () => {
    sb.write(".commandcode/settings.json", '{"permissions": {"defaultMode": "plan"}}');
    const edit = call({ tool: "write_file", input: { path: path.join(sb.workspace, "x.ts"), content: "x" } });
    const plan = JSON.parse(
      (await cli("decide", "--workspace", sb.workspace, "--agent", "commandcode", "--call", edit)).out,
    );
    expect(plan.step).toBe("plan-mode");
    const yolo = JSON.parse(
      (await cli("decide", "--workspace", sb.workspace, "--agent", "commandcode", "--mode", "yolo", "--call", edit))
        .out,
    );
    expect(yolo.decision).toBe("allow");
  });

  it.each([
    [["--agent", "claude-code", "--call", "{not json"], /not valid JSON/],
    [["--agent", "vim", "--call", '{"tool":"Bash","input":{}}'], /unknown agent "vim"/],
    [["--agent", "claude-code", "--mode", "turbo", "--call", '{"tool":"Bash","input":{}}'], /unknown mode "turbo"/],
    [["--agent", "claude-code", "--call", '{"input":{}}'], /tool/],
  ])("exit 2 with one line for %j", async (args, reason) => {
    const r = await cli("decide", "--workspace", sb.workspace, ...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(reason);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.out).toBe("");
  });

  it("works through bin/cockpit.mjs", async () => {
    sb.write(".mevedel/permissions.el", FIXTURES.mevedel);
    const run = promisify(execFile);
    const root = path.resolve(import.meta.dirname, "../..");
    const { stdout } = await run(
      process.execPath,
      [
        path.join(root, "bin/cockpit.mjs"),
        "decide",
        "--workspace",
        sb.workspace,
        "--agent",
        "mevedel",
        "--call",
        call({ tool: "Bash", input: { command: "rm x" } }),
      ],
      {
        env: { ...process.env, HOME: sb.home },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ decision: "deny", step: "deny-rule", scope: "workspace" });
  });
});
