/**
 * config.toml reading and mode resolution; defaults from openai/codex core/src/config/mod.rs (approval default by
 * trust), config/src/config_toml.rs derive_sandbox_policy (sandbox default by trust) and get_active_project.
 */
import { describe, expect, it } from "vitest";
import { activeProjectTrust, hooksEnabled, parseCodexConfig, resolveModes, trustForDir } from "./config";
import { ConfigEditRefused, setApprovalPolicy, setProjectTrust, setSandboxMode } from "./config-edit";

const CONFIG = `# my codex config
model = "gpt-5"
approval_policy = "on-request"   # ask when needed
profile = "fast"

[profiles.fast]
sandbox_mode = "danger-full-access"

[projects."/home/u/work"]
trust_level = "trusted"

[projects."/home/u/scratch"]
trust_level = "untrusted"
`;

const ok = (text: string) => {
  const p = parseCodexConfig(text);
  if (!p.ok) throw new Error(p.message);
  return p.config;
};

describe("parseCodexConfig", () => {
  it("reads modes, profiles and trust", () => {
    const c = ok(CONFIG);
    expect(c.approval_policy).toBe("on-request");
    expect(c.profiles?.fast?.sandbox_mode).toBe("danger-full-access");
    expect(c.projects?.["/home/u/work"]?.trust_level).toBe("trusted");
  });
  it("reads a granular approval policy", () => {
    expect(
      ok("approval_policy = { granular = { sandbox_approval = true, rules = false, mcp_elicitations = true } }\n")
        .approval_policy,
    ).toEqual({
      granular: { sandbox_approval: true, rules: false, mcp_elicitations: true },
    });
  });
  it("reports a syntax error or a bad value with its line, never throws", () => {
    expect(parseCodexConfig("a = = 1\n")).toMatchObject({ ok: false, line: 1 });
    expect(parseCodexConfig('model = "x"\napproval_policy = "sometimes"\n')).toMatchObject({
      ok: false,
      line: 2,
      message: expect.stringContaining("approval_policy"),
    });
  });
  it("hooks are on unless [features] hooks (or its legacy alias codex_hooks) is false", () => {
    expect(hooksEnabled(ok(""))).toBe(true);
    expect(hooksEnabled(ok("[features]\nhooks = false\n"))).toBe(false);
    expect(hooksEnabled(ok("[features]\ncodex_hooks = false\n"))).toBe(false);
    expect(hooksEnabled(ok("[features]\nhooks = true\n"))).toBe(true);
  });
});

describe("trust", () => {
  const projects = ok(CONFIG).projects;
  it("a folder's own entry, then the project root's, then the repo root's (decision_for_dir)", () => {
    expect(trustForDir(projects, { dir: ["/home/u/work/sub"], projectRoot: ["/home/u/work"] })).toEqual({
      level: "trusted",
      key: "/home/u/work",
    });
    expect(trustForDir(projects, { dir: ["/home/u/scratch"], projectRoot: ["/home/u/work"] })).toEqual({
      level: "untrusted",
      key: "/home/u/scratch",
    });
    expect(trustForDir(projects, { dir: ["/tmp/x"], projectRoot: ["/tmp/x"], repoRoot: ["/home/u/work"] }).level).toBe(
      "trusted",
    );
    expect(trustForDir(projects, { dir: ["/tmp/x"], projectRoot: ["/tmp/x"] })).toEqual({});
  });
  it("the active project is cwd, then the repo root (get_active_project)", () => {
    expect(activeProjectTrust(projects, { cwd: ["/home/u/work"] })).toBe("trusted");
    expect(activeProjectTrust(projects, { cwd: ["/home/u/work/sub"], repoRoot: ["/home/u/scratch"] })).toBe(
      "untrusted",
    );
    expect(activeProjectTrust(projects, { cwd: ["/elsewhere"] })).toBeUndefined();
  });
});

describe("resolveModes", () => {
  it("defaults: on-request, read-only without a trust decision", () => {
    expect(resolveModes({ layers: [] })).toMatchObject({ approvalPolicy: "on-request", sandboxMode: "read-only" });
  });
  it("defaults for a trusted project: on-request, workspace-write", () => {
    expect(resolveModes({ layers: [], activeTrust: "trusted" })).toMatchObject({
      approvalPolicy: "on-request",
      sandboxMode: "workspace-write",
    });
  });
  it("defaults for an untrusted project: untrusted, workspace-write", () => {
    expect(resolveModes({ layers: [], activeTrust: "untrusted" })).toMatchObject({
      approvalPolicy: "untrusted",
      sandboxMode: "workspace-write",
    });
  });
  it("the selected profile beats the top level; overrides beat both; later layers beat earlier", () => {
    expect(resolveModes({ layers: [ok(CONFIG)] })).toMatchObject({
      approvalPolicy: "on-request",
      sandboxMode: "danger-full-access",
      profile: "fast",
    });
    expect(
      resolveModes({ layers: [ok(CONFIG)], overrides: { sandboxMode: "read-only", approvalPolicy: "never" } }),
    ).toMatchObject({ approvalPolicy: "never", sandboxMode: "read-only" });
    expect(
      resolveModes({ layers: [ok('approval_policy = "never"\n'), ok('approval_policy = "untrusted"\n')] })
        .approvalPolicy,
    ).toBe("untrusted");
  });
});

describe("config.toml edits keep every other byte", () => {
  it("changes an existing trust level in place", () => {
    const next = setProjectTrust(CONFIG, "/home/u/scratch", "trusted");
    expect(next).toBe(
      CONFIG.replace(
        '[projects."/home/u/scratch"]\ntrust_level = "untrusted"',
        '[projects."/home/u/scratch"]\ntrust_level = "trusted"',
      ),
    );
  });
  it("adds a project table at the end", () => {
    const next = setProjectTrust(CONFIG, "/home/u/new repo", "trusted");
    expect(next).toBe(CONFIG + '\n[projects."/home/u/new repo"]\ntrust_level = "trusted"\n');
    expect(setProjectTrust("", "/p", "untrusted")).toBe('[projects."/p"]\ntrust_level = "untrusted"\n');
  });
  it("adds trust_level to an existing project table", () => {
    const text = '[projects."/p"]\nnote = "x"\n\n[other]\na = 1\n';
    expect(setProjectTrust(text, "/p", "trusted")).toBe(
      '[projects."/p"]\nnote = "x"\ntrust_level = "trusted"\n\n[other]\na = 1\n',
    );
  });
  it("replaces approval_policy's value only (its comment stays)", () => {
    expect(setApprovalPolicy(CONFIG, "untrusted")).toBe(
      CONFIG.replace('approval_policy = "on-request"', 'approval_policy = "untrusted"'),
    );
  });
  it("inserts a top-level key before the first table, and into a profile", () => {
    const text = '# header\n\n[projects."/p"]\ntrust_level = "trusted"\n';
    expect(setApprovalPolicy(text, "never")).toBe(
      '# header\napproval_policy = "never"\n\n[projects."/p"]\ntrust_level = "trusted"\n',
    );
    expect(setSandboxMode(CONFIG, "workspace-write", "fast")).toBe(
      CONFIG.replace('sandbox_mode = "danger-full-access"', 'sandbox_mode = "workspace-write"'),
    );
    expect(setSandboxMode("", "read-only")).toBe('sandbox_mode = "read-only"\n');
    expect(setApprovalPolicy(CONFIG, { granular: { sandbox_approval: true, rules: false } }, "slow")).toContain(
      "[profiles.slow]\napproval_policy = { granular = { sandbox_approval = true, rules = false } }\n",
    );
  });
  it("refuses a malformed file and never reformats it", () => {
    expect(() => setApprovalPolicy("a = = 1\n", "never")).toThrow(ConfigEditRefused);
  });
  it("refuses trust written as inline tables instead of guessing", () => {
    expect(() => setProjectTrust('projects = { "/p" = { note = "x" } }\n', "/p", "trusted")).toThrow(/by hand/);
  });
});
