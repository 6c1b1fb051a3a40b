/**
 * Gemini CLI behind the agent interface: the registry's engine, stores and connector against real files in a scratch
 * home and workspace, and Gemini's own hook payload shapes (docs/hooks/reference.md, hooks/hookEventHandler.ts).
 */
import { parse } from "zod";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectorOf, engineOf, storesOf } from "../registry";
import type { Admission, CardOutcome, CardRequest, CockpitPort, HookContext, ToolUseEvent } from "../types";
import { parseRuleLine, ruleLine } from "./rule-text";
import { info } from "./info";

let root: string;
let home: string;
let ws: string;
let etc: string;
const MINE = `# rules of mine
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"   # read-only
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "npm"
decision = "allow"
priority = 100
`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "gemini-agent-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  const dir = await mkdtemp(path.join(root, "t-"));
  home = path.join(dir, "home");
  ws = path.join(dir, "ws");
  etc = path.join(dir, "etc");
  await mkdir(path.join(home, ".gemini", "policies"), { recursive: true });
  await mkdir(path.join(ws, ".gemini", "policies"), { recursive: true });
  await mkdir(etc, { recursive: true });
  await writeFile(path.join(home, ".gemini", "policies", "mine.toml"), MINE);
});

const scope = () => ({ workspace: ws, home, etcDir: etc });
const call = (command: string) => ({ tool: "run_shell_command", input: { command } });

async function snapshot(extra: { sessionRows?: never[] } = {}) {
  return (await engineOf("gemini")).load({ paths: scope(), ...extra });
}

describe("gemini engine", () => {
  it("decides with the user's policy files, Gemini's built-in defaults and its modes", async () => {
    const s = await snapshot();
    const git = s.decide({ call: call("git status") }).decision;
    expect(git).toMatchObject({ decision: "allow", step: "allow-rule", scope: "global" });
    expect(git.store).toBe(path.join(home, ".gemini", "policies", "mine.toml"));
    expect(git.rule).toBe(
      'toolName = "run_shell_command", commandPrefix = "git status", decision = "allow", priority = 100',
    );
    // Every sub-command is re-checked: the `rm` has no rule, so Gemini asks.
    expect(s.decide({ call: call("git status && rm -rf x") }).decision.decision).toBe("ask");
    // `git status` does not cover `git statusx`, and redirection downgrades an allow to ask.
    expect(s.decide({ call: call("git statusx") }).decision.decision).toBe("ask");
    expect(s.decide({ call: call("npm test > out.txt") }).decision.decision).toBe("ask");
    const write = s.decide({ call: { tool: "write_file", input: { file_path: "a.txt", content: "x" } } });
    expect(write.decision).toMatchObject({ decision: "ask", step: "ask-rule", scope: "managed" });
    expect(write.decision.store).toMatch(/policies\/write\.toml$/);
  });

  it("an untrusted folder forces default mode; a trusted one runs YOLO, which is no authority for an asked call", async () => {
    const write = { tool: "write_file", input: { file_path: "a.txt", content: "x" } };
    let s = await snapshot();
    const untrusted = s.decide({ call: write, mode: "yolo" });
    expect(untrusted.modeEffective).toBe("default");
    expect(untrusted.decision.decision).toBe("ask");
    await writeFile(path.join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [ws]: "TRUST_FOLDER" }));
    s = await snapshot();
    const yolo = s.decide({ call: write, mode: "yolo" });
    expect(yolo).toMatchObject({ modeEffective: "yolo", decision: { decision: "allow", step: "yolo" } });
    expect(s.decideAsked({ call: write, mode: "yolo" }).decision.decision).toBe("ask");
    // An allow rule someone wrote is authority.
    expect(s.decideAsked({ call: call("git status") }).decision.decision).toBe("allow");
    const auto = s.decide({ call: write, mode: "auto_edit" }).decision;
    expect(auto).toMatchObject({ decision: "allow", step: "accept-edits" });
  });

  it("parses modes and calls as Gemini spells them, and refuses others", async () => {
    const e = await engineOf("gemini");
    expect(e.parseMode("auto_edit")).toEqual({ ok: true, value: "auto_edit" });
    expect(e.parseMode("autoEdit")).toEqual({ ok: true, value: "auto_edit" });
    expect(e.parseMode("bypass").ok).toBe(false);
    expect(e.parseCall({ tool: "mcp_github_create_issue", input: { title: "x" }, server: "github" })).toMatchObject({
      ok: true,
      value: { tool: "mcp_github_create_issue", server: "github" },
    });
    expect(e.parseCall({ input: {} }).ok).toBe(false);
  });

  it("remembers what Gemini writes: a 950 allow in ~/.gemini/policies/auto-saved.toml; the session entry decides", async () => {
    const s = await snapshot();
    const req = { call: call("docker ps -a") };
    const d = s.decide(req).decision;
    expect(d.decision).toBe("ask");
    const offer = s.remember(req, d);
    expect(offer.workspaceStore).toBe("~/.gemini/policies/auto-saved.toml");
    // Gemini's own file is the user's: "always allow" there needs the right to change global rules.
    expect(offer.workspaceScope).toBe("global");
    expect(offer.workspace).toEqual([
      'toolName = "run_shell_command", commandPrefix = ["docker"], decision = "allow", priority = 950, modes = ["default", "autoEdit", "yolo"]',
    ]);
    const rows = [
      { id: "r1", agentSessionId: "s1", agent: "gemini", action: "allow" as const, rule: offer.session[0]! },
    ];
    const e = await engineOf("gemini");
    const withSession = await e.load({ paths: scope(), sessionRows: rows, sessionId: "s1" });
    const again = withSession.decideAsked(req).decision;
    expect(again).toMatchObject({ decision: "allow", scope: "session", store: "session:s1" });
    // Another session's rows decide nothing.
    const other = await e.load({ paths: scope(), sessionRows: rows, sessionId: "s2" });
    expect(other.decide(req).decision.decision).toBe("ask");
    expect(e.describeRule(offer.session[0]!, "allow")).toEqual({
      ok: true,
      value: { tool: "run_shell_command", specifier: "docker" },
    });
    expect(await e.isToolWide('toolName = "run_shell_command", decision = "allow", priority = 1')).toBe(true);
    expect(await e.isToolWide(offer.session[0]!)).toBe(false);
  });
});

describe("gemini stores", () => {
  it("lists every tier: user files editable, built-in defaults and admin read-only, workspace files not loaded", async () => {
    await writeFile(path.join(ws, ".gemini", "policies", "team.toml"), MINE);
    await mkdir(path.join(etc, "gemini-cli", "policies"), { recursive: true });
    await writeFile(path.join(home, ".gemini", "policies", "broken.toml"), "[[rule]\ntoolName = 1\n");
    const l = await (await storesOf("gemini")).list(scope());
    const mine = l.entries.filter((e) => e.store.path.endsWith("mine.toml"));
    expect(mine.map((e) => [e.line, e.action, e.writable, e.scope])).toEqual([
      [2, "allow", true, "global"],
      [8, "allow", true, "global"],
    ]);
    const builtin = l.stores.find((s) => s.path.endsWith("policies/write.toml"))!;
    expect(builtin).toMatchObject({ scope: "managed", writable: false, readOnlyReason: "built into Gemini CLI" });
    const writeAsk = l.entries.find((e) => e.store.path === builtin.path && e.tool === "write_file");
    expect(writeAsk?.action).toBe("ask");
    const team = l.stores.find((s) => s.path.endsWith("team.toml")) as { inactive?: string; scope: string };
    expect(team.scope).toBe("workspace");
    expect(team.inactive).toMatch(/not loaded by this Gemini version/);
    const broken = l.stores.find((s) => s.path.endsWith("broken.toml"))!;
    expect(broken.valid).toBe(false);
    expect(broken.error).toMatch(/TOML parsing failed/);
    // The broken file drops only itself: mine.toml still decides.
    const s = await snapshot();
    expect(s.decide({ call: call("git status") }).decision.decision).toBe("allow");
    const auto = l.stores.find((s) => s.path.endsWith("auto-saved.toml"));
    expect(auto).toBeUndefined();
    // Hygiene through the interface: the broken file is an error, the workspace file's rules decide nothing.
    const lint = await (await storesOf("gemini")).lint!(scope());
    expect(lint.findings.map((f) => [f.kind, f.severity])).toEqual(
      expect.arrayContaining([
        ["ineffective", "error"],
        ["ineffective", "warning"],
      ]),
    );
  });

  it("lists the built-in defaults only where Gemini is in use, so other agents' Rules pages stay theirs", async () => {
    const stores = await storesOf("gemini");
    expect((await stores.list(scope())).stores.some((s) => s.path.endsWith("policies/write.toml"))).toBe(true);
    await rm(path.join(home, ".gemini"), { recursive: true, force: true });
    const bare = await stores.list(scope());
    expect(bare.entries).toEqual([]);
    expect(bare.stores.filter((s) => s.readOnlyReason === "built into Gemini CLI")).toEqual([]);
  });

  it("lists settings-derived rules (the hidden narrowing deny too) and folder trust, read-only", async () => {
    await writeFile(
      path.join(home, ".gemini", "settings.json"),
      JSON.stringify({ tools: { allowed: ["run_shell_command(git log)"], exclude: ["web_fetch"] } }),
    );
    await writeFile(path.join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [ws]: "TRUST_FOLDER" }));
    const l = await (await storesOf("gemini")).list(scope());
    const settings = l.entries.filter((e) => e.store.path.endsWith("settings.json")).map((e) => [e.action, e.rule]);
    expect(settings).toEqual(
      expect.arrayContaining([
        ["deny", expect.stringMatching(/^tools\.exclude\[0\]: toolName = "web_fetch"/)],
        ["allow", expect.stringMatching(/^tools\.allowed\[0\]: toolName = "run_shell_command"/)],
        ["deny", expect.stringMatching(/^tools\.allowed \(narrowing\): toolName = "run_shell_command".*4\.290/)],
      ]),
    );
    const writable = l.entries.filter((e) => e.store.path.endsWith("settings.json") && e.writable);
    expect(writable.map((e) => e.rule.split(":")[0])).toEqual(["tools.allowed[0]"]);
    const trust = l.entries.find((e) => e.tool === "trust")!;
    expect(trust).toMatchObject({ action: "allow", specifier: ws, scope: "global" });
    // The hidden 4.29 deny is real: `git push` is denied by it.
    const s = await snapshot();
    expect(s.decide({ call: call("git push") }).decision).toMatchObject({ decision: "deny", step: "deny-rule" });
  });

  it("revokes a settings-derived rule in place (comments kept); its hidden narrowing deny goes with it", async () => {
    const file = path.join(home, ".gemini", "settings.json");
    const before =
      '{\n  // mine\n  "tools": { "allowed": ["run_shell_command(git log)", "glob"], "exclude": ["web_fetch"] }\n}\n';
    await writeFile(file, before);
    const stores = await storesOf("gemini");
    let s = await snapshot();
    expect(s.decide({ call: call("git push") }).decision.decision).toBe("deny");
    const l = await stores.list(scope());
    const allowed = l.entries.find((e) => e.rule.startsWith("tools.allowed[0]"))!;
    const hidden = l.entries.find((e) => e.rule.startsWith("tools.allowed (narrowing)"))!;
    const exclude = l.entries.find((e) => e.rule.startsWith("tools.exclude[0]"))!;
    await expect(stores.revoke({ ...scope(), id: hidden.id })).rejects.toThrow(/follows from the other entries/);
    await expect(stores.revoke({ ...scope(), id: exclude.id })).rejects.toThrow(/joins every settings file/);
    await expect(stores.narrow({ ...scope(), id: allowed.id, to: "deny" })).rejects.toThrow(
      /has no decision of its own/,
    );
    await expect(stores.narrow({ ...scope(), id: exclude.id, to: "web_fetch" })).rejects.toThrow(
      /cannot be edited on its own/,
    );
    const r = await stores.revoke({ ...scope(), id: allowed.id, expectedVersion: allowed.store.version });
    expect(r.before.line).toBe(3);
    expect(await readFile(file, "utf8")).toBe(before.replace('"run_shell_command(git log)", ', ""));
    s = await snapshot();
    expect(s.decide({ call: call("git push") }).decision.decision).toBe("ask");
  });

  it("narrows a tools.allowed shell entry in place to a longer prefix (comments kept); never to a wider one", async () => {
    const file = path.join(home, ".gemini", "settings.json");
    const before =
      '{\n  // mine\n  "tools": {\n    "allowed": ["run_shell_command(git)", "glob"] // shell: git only\n  }\n}\n';
    await writeFile(file, before);
    const stores = await storesOf("gemini");
    let s = await snapshot();
    expect(s.decide({ call: call("git log") }).decision.decision).toBe("allow");
    const allowed = (await stores.list(scope())).entries.find((e) => e.rule.startsWith("tools.allowed[0]"))!;
    const glob = (await stores.list(scope())).entries.find((e) => e.rule.startsWith("tools.allowed[1]"))!;
    for (const wider of ["run_shell_command", "run_shell_command(gi)", "run_shell_command(gitk log)", "glob"])
      await expect(stores.narrow({ ...scope(), id: allowed.id, to: wider })).rejects.toThrow(/cannot prove narrower/);
    await expect(stores.narrow({ ...scope(), id: glob.id, to: "glob(src)" })).rejects.toThrow(/only a shell entry/);
    const dry = await stores.narrow({ ...scope(), id: allowed.id, to: "run_shell_command(git status)", dryRun: true });
    expect(await readFile(file, "utf8")).toBe(before);
    expect(dry).toMatchObject({ from: "tools.allowed[0]: run_shell_command(git)", dryRun: true });
    const r = await stores.narrow({
      ...scope(),
      id: allowed.id,
      to: "run_shell_command(git status)",
      expectedVersion: allowed.store.version,
    });
    expect(r).toMatchObject({
      from: "tools.allowed[0]: run_shell_command(git)",
      to: "tools.allowed[0]: run_shell_command(git status)",
      before: { line: 4 },
    });
    expect(await readFile(file, "utf8")).toBe(
      before.replace("run_shell_command(git)", "run_shell_command(git status)"),
    );
    s = await snapshot();
    expect(s.decide({ call: call("git status") }).decision.decision).toBe("allow");
    // What the longer prefix no longer allows, the hidden narrowing deny (4.29) now denies, as Gemini does.
    expect(s.decide({ call: call("git log") }).decision.decision).toBe("deny");
    // The bare shell tool (every command) narrows to one prefix too.
    await writeFile(file, '{ "tools": { "core": ["run_shell_command", "glob"] } }\n');
    const core = (await stores.list(scope())).entries.find((e) => e.rule.startsWith("tools.core[0]"))!;
    await stores.narrow({ ...scope(), id: core.id, to: "run_shell_command(npm test)" });
    expect(await readFile(file, "utf8")).toBe('{ "tools": { "core": ["run_shell_command(npm test)", "glob"] } }\n');
  });

  it("narrows a [[rule]]'s commandPrefix only to one extending it by whole words", async () => {
    const stores = await storesOf("gemini");
    const file = path.join(home, ".gemini", "policies", "mine.toml");
    const npm = (await stores.list(scope())).entries.find((e) => e.store.path === file && e.specifier === "npm")!;
    const rule = (prefix: string) =>
      `toolName = "run_shell_command", commandPrefix = ${prefix}, decision = "allow", priority = 100`;
    for (const wider of ['"np"', '"npmx"', '["npm", "yarn"]', '"yarn"'])
      await expect(stores.narrow({ ...scope(), id: npm.id, to: rule(wider) })).rejects.toThrow(/commandPrefix changes/);
    const r = await stores.narrow({ ...scope(), id: npm.id, to: rule('["npm test", "npm run lint"]') });
    expect(r.to).toBe(rule('["npm test", "npm run lint"]'));
    const text = await readFile(file, "utf8");
    expect(text).toContain("# rules of mine");
    expect(text).toContain('commandPrefix = ["npm test", "npm run lint"]');
    const s = await snapshot();
    expect(s.decide({ call: call("npm test") }).decision.decision).toBe("allow");
    expect(s.decide({ call: call("npm publish") }).decision.decision).not.toBe("allow");
  });

  it("revokes and narrows [[rule]] tables in place, keeping comments; refuses what is not narrower", async () => {
    const stores = await storesOf("gemini");
    const file = path.join(home, ".gemini", "policies", "mine.toml");
    let l = await stores.list(scope());
    const npm = l.entries.find((e) => e.store.path === file && e.specifier === "npm")!;
    await expect(stores.narrow({ ...scope(), id: npm.id, to: "allow" })).rejects.toThrow(/not stricter/);
    await expect(
      stores.narrow({
        ...scope(),
        id: npm.id,
        to: 'toolName = "run_shell_command", commandPrefix = "npm", decision = "allow", priority = 200',
      }),
    ).rejects.toThrow(/higher priority/);
    const narrowed = await stores.narrow({
      ...scope(),
      id: npm.id,
      to: 'toolName = "run_shell_command", commandPrefix = "npm", decision = "allow", priority = 100, modes = ["autoEdit"]',
      expectedVersion: npm.store.version,
    });
    expect(narrowed.to).toMatch(/modes = \["autoEdit"\]/);
    let text = await readFile(file, "utf8");
    expect(text).toContain("# rules of mine");
    expect(text).toContain('commandPrefix = "git status"   # read-only');
    expect(text).toMatch(/commandPrefix = "npm"\ndecision = "allow"\npriority = 100\nmodes = \["autoEdit"\]\n/);
    // A stale listing is refused.
    await expect(stores.revoke({ ...scope(), id: npm.id, expectedVersion: npm.store.version })).rejects.toThrow();
    l = await stores.list(scope());
    const git = l.entries.find((e) => e.store.path === file && e.specifier === "git status")!;
    const toDeny = await stores.narrow({ ...scope(), id: git.id, to: "deny" });
    expect(toDeny.after.text).toBe("[[rule]]");
    l = await stores.list(scope());
    const denied = l.entries.find((e) => e.store.path === file && e.specifier === "git status")!;
    expect(denied.action).toBe("deny");
    const revoked = await stores.revoke({ ...scope(), id: denied.id, expectedVersion: denied.store.version });
    expect(revoked.entry?.rule).toBe(denied.rule);
    text = await readFile(file, "utf8");
    expect(text.startsWith("# rules of mine\n[[rule]]\ntoolName")).toBe(true);
    expect(text).not.toContain("git status");
    // Built-in rules are never edited.
    const builtin = l.entries.find((e) => e.store.path.endsWith("policies/write.toml"))!;
    await expect(stores.revoke({ ...scope(), id: builtin.id })).rejects.toThrow(/read-only/);
  });

  it("adds rules to ~/.gemini/policies; always-allow merges modes as Gemini does; workspace scope is refused", async () => {
    const stores = await storesOf("gemini");
    const rule =
      'toolName = "run_shell_command", commandPrefix = ["docker"], decision = "allow", priority = 950, modes = ["autoEdit", "yolo"]';
    await expect(stores.add({ ...scope(), scope: "workspace", action: "allow", rule })).rejects.toThrow(
      /does not load workspace policies/,
    );
    await expect(stores.add({ ...scope(), scope: "global", action: "deny", rule })).rejects.toThrow(
      /decision "allow" but the action is deny/,
    );
    await expect(
      stores.add({ ...scope(), scope: "global", action: "allow", rule: 'toolName = "x", decision = "allow"' }),
    ).rejects.toThrow(/priority must be a number/);
    // The action gives the decision when the rule text leaves it out.
    const deny = await stores.add({
      ...scope(),
      scope: "global",
      action: "deny",
      file: "deny.toml",
      rule: 'toolName = "run_shell_command", commandPrefix = "git push", priority = 500',
    });
    expect(await readFile(deny.store, "utf8")).toContain(
      'commandPrefix = "git push"\ndecision = "deny"\npriority = 500\n',
    );
    await expect(
      stores.add({
        ...scope(),
        scope: "global",
        action: "allow",
        rule: 'toolName = "run_shell_command", commandRegex = "(a+)+$", decision = "allow", priority = 1',
      }),
    ).rejects.toThrow(/Gemini would drop this rule/);
    const file = path.join(home, ".gemini", "policies", "auto-saved.toml");
    await writeFile(file, "# saved by hand\n");
    const first = await stores.add({ ...scope(), scope: "global", action: "allow", rule });
    expect(first).toMatchObject({
      unchanged: false,
      store: file,
      scope: "global",
      after: { line: 3, text: "[[rule]]" },
    });
    const wider = rule.replace('["autoEdit", "yolo"]', '["default", "autoEdit", "yolo"]');
    await stores.add({ ...scope(), scope: "global", action: "allow", rule: wider });
    const text = await readFile(file, "utf8");
    expect(text.match(/\[\[rule\]\]/g)).toHaveLength(1);
    expect(text).toContain("# saved by hand");
    expect(text).toContain('modes = ["default", "autoEdit", "yolo"]');
    const s = await snapshot();
    expect(s.decide({ call: call("docker ps") }).decision).toMatchObject({ decision: "allow", store: file });
    // Another file of one's own.
    const own = await stores.add({
      ...scope(),
      scope: "global",
      action: "deny",
      rule: '{ toolName = "web_fetch", decision = "deny", priority = 500 }',
      file: "cockpit.toml",
    });
    expect(await readFile(own.store, "utf8")).toBe(
      '[[rule]]\ntoolName = "web_fetch"\ndecision = "deny"\npriority = 500\n',
    );
  });

  it("reads a rule line back as the table Gemini reads", () => {
    const parsed = parseRuleLine('[[rule]]\ntoolName = "read_file"\ndecision = "allow"\npriority = 5');
    expect(parsed.ok && ruleLine(parsed.table)).toBe('toolName = "read_file", decision = "allow", priority = 5');
    expect(parseRuleLine("toolName = ").ok).toBe(false);
  });
});

// ——— connector ———

const beforeTool = {
  session_id: "8f0c2a",
  transcript_path: "/home/u/.gemini/tmp/abc/chats/session.json",
  cwd: "/work/project",
  hook_event_name: "BeforeTool",
  timestamp: "2026-12-04T02:00:00.000Z",
  tool_name: "run_shell_command",
  tool_input: { command: "rm -rf build", description: "clean" },
};

function fakePort(admission: Admission, outcome: CardOutcome = { status: "pending", settlement: null }) {
  const calls = { admitted: [] as CardRequest[], uses: [] as ToolUseEvent[], aborted: 0, messages: 0 };
  const port: CockpitPort = {
    admit: async (c) => (calls.admitted.push(c), admission),
    wait: async () => outcome,
    abort: async () => void calls.aborted++,
    userMessage: async () => void calls.messages++,
    toolUse: async (_a, e) => void calls.uses.push(e),
  };
  const ctx: HookContext = { port, waitSeconds: 5, signal: new AbortController().signal };
  return { ctx, calls };
}

describe("gemini connector", () => {
  it("installs exactly the cockpit's hooks in .gemini/settings.json and disconnect gives the bytes back", async () => {
    const c = await connectorOf("gemini");
    const file = path.join(ws, ".gemini", "settings.json");
    const before = '{\n  // mine\n  "general": { "vimMode": true }\n}\n';
    await writeFile(file, before);
    const target = { workspace: ws, home, url: "http://127.0.0.1:3000", cliPath: "/opt/c/bin/cockpit.mjs" };
    const done = await c.connect(target);
    expect(done).toMatchObject({
      file,
      changed: true,
      events: ["BeforeTool", "AfterTool", "BeforeAgent", "Notification"],
    });
    expect(done.next).toMatch(/deny from the cockpit, approve in Gemini's terminal/);
    const text = await readFile(file, "utf8");
    expect(text).toContain("// mine");
    expect(text).toContain(
      'COCKPIT_URL=http://127.0.0.1:3000 COCKPIT_HOOK_WAIT=60 node \\"/opt/c/bin/cockpit.mjs\\" hook gemini',
    );
    expect((await c.connect(target)).changed).toBe(false);
    expect((await c.disconnect(target)).changed).toBe(true);
    expect(await readFile(file, "utf8")).toBe(before);
    const user = await c.connect({ ...target, user: true });
    expect(user.file).toBe(path.join(home, ".gemini", "settings.json"));
    await writeFile(file, "{ not json");
    await expect(c.connect(target)).rejects.toThrow(/never overwritten/);
    expect(await readFile(file, "utf8")).toBe("{ not json");
  });

  it("a BeforeTool call Gemini would prompt for becomes a card; a person's deny blocks it", async () => {
    const c = await connectorOf("gemini");
    const payload = parse(c.payload, beforeTool);
    const { ctx, calls } = fakePort(
      { status: "pending", id: "card1" },
      { status: "denied", settlement: { outcome: "deny", message: "not now", by: "Ana" } },
    );
    expect(await c.handle(payload, ctx)).toEqual({
      decision: "deny",
      reason: "Denied from Permissions Cockpit by Ana: not now",
    });
    expect(calls.admitted[0]).toMatchObject({
      agent: "gemini",
      sessionId: "8f0c2a",
      tool: "run_shell_command",
      input: { command: "rm -rf build" },
      agentAsked: false,
    });
    // The card carries no made-up "reason": where approving happens is the catalogue's line, shown by every client.
    expect(calls.admitted[0]!.reason).toBeUndefined();
    expect(info).toMatchObject({
      canAllowFromCockpit: false,
      approveNote: expect.stringContaining("approve in Gemini's terminal"),
    });
    expect(calls.uses[0]).toMatchObject({ phase: "pre", tool: "run_shell_command", at: "2026-12-04T02:00:00.000Z" });
  });

  it("an allow from the phone cannot approve: it says so and Gemini's own prompt decides; no answer prints nothing", async () => {
    const c = await connectorOf("gemini");
    const payload = parse(c.payload, beforeTool);
    const allowed = fakePort(
      { status: "pending", id: "card1" },
      { status: "allowed", settlement: { outcome: "allow", message: null } },
    );
    const out = (await c.handle(payload, allowed.ctx)) as Record<string, unknown>;
    expect(out.decision).toBeUndefined();
    expect(out.systemMessage).toMatch(/still asks in its terminal/);
    const timeout = fakePort({ status: "pending", id: "card1" });
    expect(await c.handle(payload, timeout.ctx)).toBeNull();
    expect(timeout.calls.aborted).toBe(1);
    const settled = fakePort({ status: "settled", decision: "deny", reason: "deny rule" });
    expect(await c.handle(payload, settled.ctx)).toEqual({ decision: "deny", reason: "deny rule" });
    const byPolicy = fakePort({ status: "settled", decision: "allow", reason: "allow rule" });
    expect(await c.handle(payload, byPolicy.ctx)).toBeNull();
  });

  it("BeforeAgent ends an absence hold; AfterTool goes to the audit log with its error", async () => {
    const c = await connectorOf("gemini");
    const { ctx, calls } = fakePort({ status: "refused", why: "x" });
    await c.handle(
      parse(c.payload, { ...beforeTool, hook_event_name: "BeforeAgent", prompt: "go on", tool_name: undefined }),
      ctx,
    );
    expect(calls.messages).toBe(1);
    await c.handle(
      parse(c.payload, {
        ...beforeTool,
        hook_event_name: "AfterTool",
        tool_response: { llmContent: "", error: "exit 1" },
      }),
      ctx,
    );
    expect(calls.uses[0]).toMatchObject({ phase: "post", tool: "run_shell_command", reason: "tool error: exit 1" });
    expect(calls.admitted).toHaveLength(0);
  });
});
