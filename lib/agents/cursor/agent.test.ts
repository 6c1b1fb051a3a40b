/**
 * Cursor CLI behind the agent interface: the registry's engine, stores and connector against real files in a scratch
 * home and git workspace, and Cursor's hook payload shapes (https://cursor.com/docs/hooks, "Common schema",
 * beforeShellExecution / beforeMCPExecution / beforeReadFile, afterShellExecution).
 */
import { parse } from "zod";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectorOf, engineOf, storesOf } from "../registry";
import type { Admission, CardOutcome, CardRequest, CockpitPort, HookContext, ToolUseEvent } from "../types";

let root: string;
let home: string;
let ws: string;
// Plain JSON, as Cursor reads cli.json (a file with comments is listed, but its allow list is not counted).
const CLI = `{
  "model": "auto",
  "permissions": {
    "allow": ["Shell(git)", "Read(src/**)", "Shell(npm:test)"],
    "deny": ["Shell(rm)"]
  }
}
`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cursor-agent-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  const dir = await mkdtemp(path.join(root, "t-"));
  home = path.join(dir, "home");
  ws = path.join(dir, "ws");
  await mkdir(path.join(home, ".cursor"), { recursive: true });
  await mkdir(path.join(ws, ".cursor"), { recursive: true });
  await mkdir(path.join(ws, ".git"), { recursive: true });
  await writeFile(path.join(ws, ".cursor", "cli.json"), CLI);
});

const scope = () => ({ workspace: ws, home });
const shell = (command: string) => ({ tool: "Shell", input: { command } });

describe("cursor engine", () => {
  it("deny beats allow, what no entry allows asks, and compound commands are decided per segment, labelled inferred", async () => {
    const s = await (await engineOf("cursor")).load({ paths: scope() });
    const git = s.decide({ call: shell("git status") }).decision;
    expect(git).toMatchObject({ decision: "allow", step: "allow-rule", rule: "Shell(git)", scope: "workspace" });
    expect(git.store).toBe(path.join(ws, ".cursor", "cli.json"));
    expect(git.reason).not.toMatch(/inferred/);
    const rm = s.decide({ call: shell("git status && rm -rf x") });
    expect(rm.decision).toMatchObject({ decision: "deny", step: "deny-rule", rule: "Shell(rm)" });
    expect(rm.decision.reason).toMatch(/^inferred: /);
    expect(rm.explain).toMatchObject({ inferred: true });
    const pipe = s.decide({ call: shell("git log | less") }).decision;
    expect(pipe).toMatchObject({ decision: "ask", step: "fallback" });
    expect(pipe.reason).toMatch(/^inferred: .*less/);
    expect(pipe.warnings).toContain("inferred");
    expect(s.decide({ call: shell("npm test") }).decision.decision).toBe("allow");
    expect(s.decide({ call: shell("npm install") }).decision.decision).toBe("ask");
    expect(s.decide({ call: { tool: "Read", input: { path: "src/a.ts" } } }).decision.decision).toBe("allow");
    // An inferred allow is no authority for an asked call; a documented one is.
    const both = s.decideAsked({ call: shell("git status && git log") }).decision;
    expect(both.decision).toBe("ask");
    expect(s.decideAsked({ call: shell("git status") }).decision.decision).toBe("allow");
    // force mode allows what no entry denies, but never for an asked call.
    expect(s.decide({ call: shell("make"), mode: "force" }).decision).toMatchObject({
      decision: "allow",
      step: "yolo",
    });
    expect(s.decideAsked({ call: shell("make"), mode: "force" }).decision.decision).toBe("ask");
  });

  it("parses Cursor's call shapes and modes", async () => {
    const e = await engineOf("cursor");
    expect(e.parseCall({ tool: "Shell", input: { command: "ls" } })).toEqual({
      ok: true,
      value: { tool: "Shell", input: { command: "ls" } },
    });
    expect(e.parseCall({ tool: "Mcp", input: { server: "datadog", tool: "search" } })).toEqual({
      ok: true,
      value: { tool: "Mcp", input: { server: "datadog", tool: "search" } },
    });
    expect(e.parseCall({ tool: "Bash2", input: {} }).ok).toBe(false);
    expect(e.parseMode("allowlist")).toEqual({ ok: true, value: "default" });
    expect(e.parseMode("plan").ok).toBe(false);
    expect(e.describeRule("Shell(npm:test)", "allow")).toEqual({
      ok: true,
      value: { tool: "Shell", specifier: "npm:test" },
    });
    expect(await e.isToolWide("Shell(*)")).toBe(true);
    expect(await e.isToolWide("Shell(git)")).toBe(false);
  });

  it("remembers the narrowest documented token in the project's cli.json; a session entry allows, denies still deny", async () => {
    const e = await engineOf("cursor");
    const s = await e.load({ paths: scope() });
    const req = { call: shell("docker ps -a") };
    const offer = s.remember(req, s.decide(req).decision);
    expect(offer).toEqual({
      session: ["Shell(docker:ps -a)"],
      workspace: ["Shell(docker:ps -a)"],
      workspaceStore: ".cursor/cli.json",
    });
    const rows = [
      { id: "1", agentSessionId: "c1", agent: "cursor", action: "allow" as const, rule: "Shell(docker:*)" },
      { id: "2", agentSessionId: "c1", agent: "cursor", action: "allow" as const, rule: "Shell(rm)" },
    ];
    const withSession = await e.load({ paths: scope(), sessionRows: rows, sessionId: "c1" });
    expect(withSession.decideAsked(req).decision).toMatchObject({
      decision: "allow",
      scope: "session",
      store: "session:c1",
    });
    expect(withSession.decide({ call: shell("rm x") }).decision.decision).toBe("deny");
    const other = await e.load({ paths: scope(), sessionRows: rows, sessionId: "c2" });
    expect(other.decide(req).decision.decision).toBe("ask");
  });
});

describe("cursor stores", () => {
  it("lists the global file and each cli.json from the git root down, with lines; a broken file is invalid", async () => {
    await mkdir(path.join(ws, "pkg", ".cursor"), { recursive: true });
    await writeFile(path.join(ws, "pkg", ".cursor", "cli.json"), "{ broken");
    const l = await (await storesOf("cursor")).list({ ...scope(), cwd: path.join(ws, "pkg") });
    expect(l.stores.map((s) => [path.relative(path.dirname(home), s.path), s.scope, s.valid])).toEqual([
      ["home/.cursor/cli-config.json", "global", true],
      ["ws/.cursor/cli.json", "workspace", true],
      ["ws/pkg/.cursor/cli.json", "workspace", false],
    ]);
    expect(l.entries.map((e) => [e.action, e.rule, e.line, e.tool])).toEqual([
      ["allow", "Shell(git)", 4, "Shell"],
      ["allow", "Read(src/**)", 4, "Read"],
      ["allow", "Shell(npm:test)", 4, "Shell"],
      ["deny", "Shell(rm)", 5, "Shell"],
    ]);
    expect(l.entries.every((e) => e.store.format === "cursor-json" && e.agent === "cursor")).toBe(true);
    const lint = await (await storesOf("cursor")).lint!({ ...scope(), cwd: path.join(ws, "pkg") });
    expect(lint.entries).toBe(4);
    expect(lint.findings).toEqual([expect.objectContaining({ kind: "ineffective", severity: "error" })]);
  });

  it("revokes, narrows and adds in place with jsonc-parser, keeping every other byte", async () => {
    const stores = await storesOf("cursor");
    const file = path.join(ws, ".cursor", "cli.json");
    let l = await stores.list(scope());
    const git = l.entries.find((e) => e.rule === "Shell(git)")!;
    await expect(stores.narrow({ ...scope(), id: git.id, to: "Shell(*)" })).rejects.toThrow(/narrower/);
    await expect(stores.narrow({ ...scope(), id: git.id, to: "ask" })).rejects.toThrow(/no ask list/);
    const n = await stores.narrow({
      ...scope(),
      id: git.id,
      to: "Shell(git:status)",
      expectedVersion: git.store.version,
    });
    expect(n).toMatchObject({ from: "Shell(git)", to: "Shell(git:status)" });
    let text = await readFile(file, "utf8");
    expect(text).toBe(CLI.replace('"Shell(git)"', '"Shell(git:status)"'));
    await expect(stores.revoke({ ...scope(), id: git.id })).rejects.toThrow(/no entry/);
    l = await stores.list(scope());
    const read = l.entries.find((e) => e.rule === "Read(src/**)")!;
    const r = await stores.revoke({ ...scope(), id: read.id, expectedVersion: read.store.version });
    expect(r.entry?.rule).toBe("Read(src/**)");
    text = await readFile(file, "utf8");
    expect(text).toBe(CLI.replace('"Shell(git)"', '"Shell(git:status)"').replace(' "Read(src/**)",', ""));
    await expect(stores.add({ ...scope(), scope: "workspace", action: "ask", rule: "Shell(ls)" })).rejects.toThrow(
      /no ask list/,
    );
    await expect(stores.add({ ...scope(), scope: "workspace", action: "allow", rule: "Bash(ls)" })).rejects.toThrow();
    const added = await stores.add({ ...scope(), scope: "workspace", action: "deny", rule: "WebFetch(evil.example)" });
    expect(added).toMatchObject({ unchanged: false, store: file });
    l = await stores.list(scope());
    expect(l.entries.find((e) => e.id === added.id)?.rule).toBe("WebFetch(evil.example)");
    const again = await stores.add({ ...scope(), scope: "workspace", action: "deny", rule: "WebFetch(evil.example)" });
    expect(again.unchanged).toBe(true);
    const global = await stores.add({ ...scope(), scope: "global", action: "allow", rule: "Shell(ls)" });
    expect(global).toMatchObject({ store: path.join(home, ".cursor", "cli-config.json"), scope: "global" });
    expect(JSON.parse(await readFile(global.store, "utf8"))).toEqual({ permissions: { allow: ["Shell(ls)"] } });
    expect(global.scopeWarning).toMatch(/every project/);
  });
});

// ——— connector ———

const base = {
  conversation_id: "668320d2-2fd8-4888-b33c-2a466fec86e7",
  generation_id: "490b90b7-a2ce-4c2c-bb76-cb77b125df2f",
  model: "gpt-5",
  cursor_version: "1.7.2",
  user_email: null,
};

function fakePort(admission: Admission | Error, outcome: CardOutcome = { status: "pending", settlement: null }) {
  const calls = { admitted: [] as CardRequest[], uses: [] as ToolUseEvent[], aborted: 0 };
  const port: CockpitPort = {
    admit: async (c) => {
      calls.admitted.push(c);
      if (admission instanceof Error) throw admission;
      return admission;
    },
    wait: async () => outcome,
    abort: async () => void calls.aborted++,
    userMessage: async () => undefined,
    toolUse: async (_a, e) => void calls.uses.push(e),
  };
  const ctx: HookContext = { port, waitSeconds: 5, signal: new AbortController().signal };
  return { ctx, calls };
}

describe("cursor connector", () => {
  const realHome = process.env.HOME;
  beforeEach(() => {
    process.env.HOME = home;
  });
  afterEach(() => {
    process.env.HOME = realHome;
  });

  it("installs exactly the cockpit's hooks in .cursor/hooks.json (fail closed) and disconnect gives the bytes back", async () => {
    const c = await connectorOf("cursor");
    const file = path.join(ws, ".cursor", "hooks.json");
    const before = '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./format.sh" }]\n  }\n}\n';
    await writeFile(file, before);
    const target = { workspace: ws, home, url: "http://127.0.0.1:3000", cliPath: "/opt/c/bin/cockpit.mjs" };
    const done = await c.connect(target);
    expect(done).toMatchObject({ file, changed: true });
    expect(done.events).toContain("beforeShellExecution");
    const value = JSON.parse(await readFile(file, "utf8")) as {
      hooks: Record<string, { command: string; failClosed?: boolean }[]>;
    };
    expect(value.hooks.beforeShellExecution![0]).toMatchObject({
      command: 'COCKPIT_URL=http://127.0.0.1:3000 node "/opt/c/bin/cockpit.mjs" hook cursor',
      failClosed: true,
    });
    expect(value.hooks.afterFileEdit![0]!.command).toBe("./format.sh");
    expect((await c.connect(target)).changed).toBe(false);
    await c.disconnect(target);
    expect(await readFile(file, "utf8")).toBe(before);
    expect((await c.connect({ ...target, user: true })).file).toBe(path.join(home, ".cursor", "hooks.json"));
  });

  it("answers what Cursor's own entries settle at once: allow where they allow, deny where they deny", async () => {
    const c = await connectorOf("cursor");
    const { ctx, calls } = fakePort({ status: "refused", why: "unused" });
    const allow = parse(c.payload, {
      ...base,
      hook_event_name: "beforeShellExecution",
      command: "git status",
      cwd: ws,
      workspace_roots: [ws],
    });
    expect(await c.handle(allow, ctx)).toEqual({ permission: "allow" });
    const deny = parse(c.payload, { ...(allow as object), command: "rm -rf build" });
    expect(await c.handle(deny, ctx)).toMatchObject({ permission: "deny" });
    expect(calls.admitted).toHaveLength(0);
    expect(calls.uses.map((u) => [u.phase, u.outcome, u.input.command])).toEqual([
      ["pre", "allow", "git status"],
      ["pre", "deny", "rm -rf build"],
    ]);
    const read = parse(c.payload, {
      ...base,
      hook_event_name: "beforeReadFile",
      file_path: path.join(ws, "README.md"),
      content: "x",
      workspace_roots: [ws],
    });
    expect(await c.handle(read, ctx)).toEqual({ permission: "allow" });
  });

  it("an ask becomes a card: a person's answer is Cursor's; no answer or an unreachable cockpit asks, never allows", async () => {
    const c = await connectorOf("cursor");
    const payload = parse(c.payload, {
      ...base,
      hook_event_name: "beforeShellExecution",
      command: "npm install",
      cwd: ws,
      workspace_roots: [ws],
    });
    const allowed = fakePort(
      { status: "pending", id: "k1" },
      { status: "allowed", settlement: { outcome: "allow", message: null } },
    );
    expect(await c.handle(payload, allowed.ctx)).toEqual({ permission: "allow" });
    expect(allowed.calls.admitted[0]).toMatchObject({
      agent: "cursor",
      sessionId: base.conversation_id,
      tool: "Shell",
      input: { command: "npm install" },
      agentAsked: false,
    });
    const denied = fakePort(
      { status: "pending", id: "k1" },
      { status: "denied", settlement: { outcome: "deny", message: "no", by: "Ana" } },
    );
    expect(await c.handle(payload, denied.ctx)).toMatchObject({ permission: "deny", user_message: "no" });
    const timeout = fakePort({ status: "pending", id: "k1" });
    expect(await c.handle(payload, timeout.ctx)).toMatchObject({ permission: "ask" });
    expect(timeout.calls.aborted).toBe(1);
    const down = fakePort(new Error("connect ECONNREFUSED 127.0.0.1:3000"));
    expect(await c.handle(payload, down.ctx)).toMatchObject({
      permission: "ask",
      user_message: expect.stringMatching(/ECONNREFUSED/),
    });
    const refused = fakePort({ status: "refused", why: "no such workspace" });
    expect(await c.handle(payload, refused.ctx)).toMatchObject({ permission: "ask" });
    // An inferred allow (each segment allowed) is not answered alone: it becomes a card.
    const both = parse(c.payload, { ...(payload as object), command: "git status && git log" });
    const inferred = fakePort({ status: "pending", id: "k2" });
    expect(await c.handle(both, inferred.ctx)).toMatchObject({ permission: "ask" });
    expect(inferred.calls.admitted[0]!.reason).toMatch(/inferred/);
  });

  it("without a token or a readable payload the hook prints Cursor's ask (a read: deny); after-events go to the audit log", async () => {
    const c = await connectorOf("cursor");
    expect(c.fallback?.({ hook_event_name: "beforeShellExecution" }, "no COCKPIT_TOKEN")).toMatchObject({
      permission: "ask",
    });
    expect(c.fallback?.({ hook_event_name: "beforeReadFile" }, "no COCKPIT_TOKEN")).toMatchObject({
      permission: "deny",
    });
    expect(c.fallback?.({ hook_event_name: "afterFileEdit" }, "x")).toBeNull();
    const { ctx, calls } = fakePort({ status: "refused", why: "x" });
    const after = parse(c.payload, {
      ...base,
      hook_event_name: "afterShellExecution",
      command: "ls",
      output: "a\n",
      duration: 12,
    });
    expect(await c.handle(after, ctx)).toBeNull();
    expect(calls.uses[0]).toMatchObject({ phase: "post", tool: "Shell", input: { command: "ls" } });
  });
});
