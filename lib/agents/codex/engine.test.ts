/**
 * Codex behind the agent interface, on real folders: `decide` maps Codex's allow / prompt / forbidden onto the
 * cockpit's contract with the deciding rule, file and line; `decideAsked` keeps the floor (Codex asked, so only a
 * session entry or an explicit allow rule settles it); `remember` offers what Codex's own "don't ask again" writes.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionRule } from "../types";
import { engine } from "./engine";

let root: string;
let home: string;
let ws: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "codex-engine-"));
  home = path.join(root, "home");
  ws = path.join(root, "ws");
  await mkdir(path.join(home, ".codex", "rules"), { recursive: true });
  await mkdir(path.join(ws, ".git"), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const put = async (file: string, text: string) => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
};
const rulesFile = () => path.join(home, ".codex", "rules", "default.rules");
const paths = () => ({ workspace: ws, home, etcDir: path.join(root, "etc") });
const shell = (...command: string[]) => ({ tool: "shell", input: { command } });
const load = (sessionRows: SessionRule[] = [], sessionId = "s1") =>
  engine.load({ paths: paths(), sessionRows, sessionId });

const TEAM = `# Team rules: reviewed in #infra
prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt", justification="talks to the remote")
prefix_rule(pattern=["rm"], decision="forbidden")

prefix_rule(pattern=["npm", "test"], decision="allow")  # the test suite is fine
`;

describe("codex engine: decide", () => {
  it("maps prompt / forbidden / allow onto ask / deny / allow with the rule, its file and its line", async () => {
    await put(rulesFile(), TEAM);
    const snap = await load();
    const push = snap.decide({ call: shell("git", "push", "origin") }).decision;
    expect(push).toMatchObject({
      decision: "ask",
      step: "ask-rule",
      rule: 'prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")',
      scope: "global",
      store: rulesFile(),
    });
    expect(push.reason).toContain(`${rulesFile()}:2`);
    expect(push.reason).toContain("prefix `git push`");
    expect(push.reason).toContain("talks to the remote");
    const rm_ = snap.decide({ call: shell("rm", "-rf", "build") }).decision;
    expect(rm_).toMatchObject({ decision: "deny", step: "deny-rule", store: rulesFile() });
    expect(rm_.reason).toContain(`${rulesFile()}:3`);
    expect(snap.decide({ call: shell("npm", "test", "--", "-u") }).decision).toMatchObject({
      decision: "allow",
      step: "allow-rule",
      rule: 'prefix_rule(pattern=["npm", "test"], decision="allow")',
    });
  });

  it("splits bash -lc scripts: the strictest segment wins, and --mode is the approval policy", async () => {
    await put(rulesFile(), TEAM);
    const snap = await load();
    const script = snap.decide({ call: shell("bash", "-lc", "npm test && rm -rf dist") }).decision;
    expect(script).toMatchObject({ decision: "deny", step: "deny-rule" });
    // Unmatched, not known-safe: untrusted asks, on-request runs it in the sandbox, never runs it too.
    expect(snap.decide({ call: shell("cargo", "build"), mode: "untrusted" }).decision).toMatchObject({
      decision: "ask",
      step: "fallback",
    });
    expect(snap.decide({ call: shell("cargo", "build"), mode: "on-request" }).decision).toMatchObject({
      decision: "allow",
      step: "yolo",
    });
    // A prompt rule under `never` becomes a rejection (prompt_is_rejected_by_policy).
    expect(snap.decide({ call: shell("git", "fetch"), mode: "never" }).decision).toMatchObject({
      decision: "deny",
      step: "ask-rule",
    });
    expect(snap.decide({ call: shell("ls", "-la") }).decision).toMatchObject({ decision: "allow", step: "read-only" });
  });

  it("takes the sandbox from --sandbox and escalation requests only under on-request", async () => {
    const snap = await load();
    const call = { tool: "shell", input: { command: ["cargo", "build"], sandbox_permissions: "require_escalated" } };
    expect(snap.decide({ call, options: { sandbox: "workspace-write" } }).decision.decision).toBe("ask");
    expect(snap.decide({ call, options: { sandbox: "danger-full-access" } }).decision.decision).toBe("allow");
    expect(snap.decide({ call, mode: "untrusted" }).decision).toMatchObject({ decision: "deny", step: "fallback" });
  });

  it("reads trust and the approval policy from config.toml", async () => {
    await put(path.join(home, ".codex", "config.toml"), `approval_policy = "untrusted"\n`);
    const snap = await load();
    const d = snap.decide({ call: shell("cargo", "build") });
    expect(d.modeEffective).toBe("untrusted");
    expect(d.decision.decision).toBe("ask");
  });

  it("says loudest that Codex ignores every rule when one file is broken, and keeps the stricter reading", async () => {
    await put(rulesFile(), TEAM);
    await put(path.join(home, ".codex", "rules", "zz-broken.rules"), 'prefix_rule(pattern=["ls"], decision="maybe")\n');
    const snap = await load();
    const d = snap.decide({ call: shell("rm", "notes.txt"), mode: "never" });
    expect(d.decision.warnings[0]).toMatch(/^Codex is ignoring all your rules because of .*zz-broken\.rules, line 1/);
    // Codex itself would run it (`never`, no rules); the cockpit keeps the rule it can read.
    expect(d.explain).toMatchObject({ codex: "allow" });
    expect(d.decision.decision).toBe("deny");
    expect(snap.stores.find((s) => s.path.endsWith("zz-broken.rules"))).toMatchObject({ valid: false });
  });

  it("accepts the command string a hook carries (run by the user's shell) and refuses other tools' calls as asks", async () => {
    await put(rulesFile(), TEAM);
    const snap = await load();
    expect(
      snap.decide({ call: { tool: "Bash", input: { command: "npm test && git push origin" } } }).decision,
    ).toMatchObject({ decision: "ask", step: "ask-rule" });
    expect(
      snap.decide({ call: { tool: "apply_patch", input: { command: "*** Begin Patch" } } }).decision,
    ).toMatchObject({ decision: "ask", step: "fallback" });
    expect(engine.parseCall({ tool: "shell", input: { command: [] } })).toMatchObject({ ok: false });
    expect(engine.parseMode("on-request")).toEqual({ ok: true, value: "on-request" });
    expect(engine.parseMode("yolo")).toMatchObject({ ok: false });
  });
});

describe("codex engine: a call Codex asked a person about", () => {
  it("never settles as allow from heuristics; a session entry for the exact command does", async () => {
    const snap = await load();
    const call = shell("cargo", "build");
    expect(snap.decide({ call }).decision.decision).toBe("allow");
    expect(snap.decideAsked({ call }).decision).toMatchObject({ decision: "ask" });
    const rows: SessionRule[] = [
      { id: "1", agentSessionId: "s1", agent: "codex", action: "allow", rule: '["cargo","build"]' },
      { id: "2", agentSessionId: "other", agent: "codex", action: "allow", rule: '["make"]' },
    ];
    const withSession = await load(rows);
    expect(withSession.decideAsked({ call }).decision).toMatchObject({
      decision: "allow",
      scope: "session",
      store: "session:s1",
      rule: '["cargo","build"]',
    });
    // Only the exact command: more arguments, or another session's entry, still ask.
    expect(withSession.decideAsked({ call: shell("cargo", "build", "--release") }).decision.decision).toBe("ask");
    expect(withSession.decideAsked({ call: shell("make") }).decision.decision).toBe("ask");
  });

  it("keeps a forbidden rule's deny over any session entry", async () => {
    await put(rulesFile(), TEAM);
    const rows: SessionRule[] = [
      { id: "1", agentSessionId: "s1", agent: "codex", action: "allow", rule: '["rm","-rf","build"]' },
    ];
    const snap = await load(rows);
    expect(snap.decideAsked({ call: shell("rm", "-rf", "build") }).decision.decision).toBe("deny");
  });

  it("lets a session prefix rule settle every segment, and a session deny rule join Codex's policy", async () => {
    const rows: SessionRule[] = [
      {
        id: "1",
        agentSessionId: "s1",
        agent: "codex",
        action: "allow",
        rule: 'prefix_rule(pattern=["make"], decision="allow")',
      },
      {
        id: "2",
        agentSessionId: "s1",
        agent: "codex",
        action: "deny",
        rule: 'prefix_rule(pattern=["curl"], decision="forbidden")',
      },
    ];
    const snap = await load(rows);
    expect(snap.decideAsked({ call: shell("bash", "-lc", "make build && make test") }).decision).toMatchObject({
      decision: "allow",
      scope: "session",
    });
    expect(snap.decide({ call: shell("curl", "example.com") }).decision).toMatchObject({
      decision: "deny",
      scope: "session",
      store: "session:s1",
    });
  });

  it("offers what Codex's don't-ask-again writes: the prompting segment, in ~/.codex/rules/default.rules", async () => {
    await put(rulesFile(), TEAM);
    const snap = await load();
    const req = { call: shell("bash", "-lc", "npm test && cargo publish"), mode: "untrusted" };
    const d = snap.decideAsked(req).decision;
    expect(d.decision).toBe("ask");
    expect(snap.remember(req, d)).toEqual({
      session: ['["bash","-lc","npm test && cargo publish"]'],
      workspace: ['prefix_rule(pattern=["cargo", "publish"], decision="allow")'],
      workspaceStore: "~/.codex/rules/default.rules",
      workspaceScope: "global",
    });
    // A prompt rule matched: Codex offers no "don't ask again" (try_derive_execpolicy_amendment_for_prompt_rules).
    const push = { call: shell("git", "push") };
    expect(snap.remember(push, snap.decideAsked(push).decision).workspace).toEqual([]);
  });

  it("waits for a person when a command names the cockpit's own data folder", async () => {
    const snap = await load();
    const dataDir = path.resolve(process.env.COCKPIT_DATA || ".cockpit");
    const d = snap.decide({ call: shell("cat", path.join(dataDir, "credential.json")) }).decision;
    expect(d).toMatchObject({ decision: "ask", step: "protected-path", protected: true, safetyCheck: true });
  });
});

describe("codex engine: session entries as the Rules page lists them", () => {
  it("describes exact commands and prefix rules", () => {
    expect(engine.describeRule('["git","push","origin main"]', "allow")).toEqual({
      ok: true,
      value: { tool: "shell", specifier: "git push 'origin main'" },
    });
    expect(engine.describeRule('prefix_rule(pattern=["git", ["push", "fetch"]], decision="allow")', "allow")).toEqual({
      ok: true,
      value: { tool: "shell", specifier: "git push|fetch" },
    });
    expect(engine.describeRule("Bash(git push)", "allow")).toMatchObject({ ok: false });
  });
});
