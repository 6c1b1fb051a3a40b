/**
 * Codex's stores behind the agent interface, on real folders: listing (every rules file, requirement and setting,
 * with file and line; untrusted projects listed as inactive; the "ignoring all your rules" banner), and revoke,
 * narrow and add in place on commented, real-looking files: every other byte kept, Codex's own append format,
 * refusals that leave the file alone.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stores } from "./stores";

let root: string;
let home: string;
let ws: string;
let etc: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "codex-stores-iface-"));
  home = path.join(root, "home");
  ws = path.join(root, "ws");
  etc = path.join(root, "etc");
  await mkdir(path.join(home, ".codex", "rules"), { recursive: true });
  await mkdir(path.join(ws, ".git"), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const put = async (file: string, text: string) => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
};
const scope = () => ({ workspace: ws, home, etcDir: etc });
const userRules = () => path.join(home, ".codex", "rules", "default.rules");
const team = () => path.join(home, ".codex", "rules", "team.rules");
const config = () => path.join(home, ".codex", "config.toml");

const TEAM = `# Team rules — reviewed in #infra, do not reorder
# (Codex reads every *.rules file here)

prefix_rule(
    pattern = ["git", ["push", "fetch"]],   # remote operations
    decision = "prompt",
    justification = "talks to the remote",
)

prefix_rule(pattern=["npm", ["test", "run"]], decision="allow")  # CI mirrors this
prefix_rule(pattern=["rm", "-rf"], decision="forbidden")
`;

const CONFIG = `# my Codex settings
model = "gpt-5-codex"
approval_policy = "on-request"  # ask when it wants out of the sandbox

[profiles.ci]
sandbox_mode = "danger-full-access"

[projects."${"/srv/other"}"]
trust_level = "trusted"
`;

const byRule = async (rule: string) => (await stores.list(scope())).entries.find((e) => e.rule === rule)!;

describe("codex stores: list", () => {
  it("lists every call, requirement and setting with its file, line, scope and action", async () => {
    await put(team(), TEAM);
    await put(config(), CONFIG);
    await put(
      path.join(etc, "codex", "requirements.toml"),
      `[rules]\nprefix_rules = [\n  { pattern = [{ token = "curl" }], decision = "forbidden", justification = "no network" },\n]\n`,
    );
    const listing = await stores.list(scope());
    expect(listing.banner).toBeUndefined();
    const rows = listing.entries.map((e) => [path.relative(root, e.store.path), e.line, e.scope, e.action, e.rule]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [
          "home/.codex/rules/team.rules",
          4,
          "global",
          "ask",
          'prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")',
        ],
        [
          "home/.codex/rules/team.rules",
          10,
          "global",
          "allow",
          'prefix_rule(pattern=["npm", ["test", "run"]], decision="allow")',
        ],
        [
          "home/.codex/rules/team.rules",
          11,
          "global",
          "deny",
          'prefix_rule(pattern=["rm", "-rf"], decision="forbidden")',
        ],
        ["home/.codex/config.toml", 3, "global", "allow", 'approval_policy = "on-request"'],
        ["home/.codex/config.toml", 6, "global", "allow", 'profiles.ci.sandbox_mode = "danger-full-access"'],
        ["home/.codex/config.toml", 9, "global", "allow", 'projects."/srv/other".trust_level = "trusted"'],
        ["etc/codex/requirements.toml", 3, "managed", "deny", 'prefix_rule(pattern=["curl"], decision="forbidden")'],
      ]),
    );
    const req = listing.stores.find((s) => s.path.endsWith("requirements.toml"))!;
    expect(req).toMatchObject({ scope: "managed", writable: false, valid: true, format: "toml" });
    expect(listing.entries.find((e) => e.store.path.endsWith("requirements.toml"))!.writable).toBe(false);
    // Where "always allow" writes is listed even before it exists.
    expect(listing.stores.find((s) => s.path === userRules())).toMatchObject({ version: "missing", writable: true });
  });

  it("banners the loudest state: one broken file and Codex ignores every rule", async () => {
    await put(team(), TEAM);
    await put(
      userRules(),
      'prefix_rule(pattern=["ls"])\nprefix_rule(pattern=["git"], decision="allow", match=["hg"])\n',
    );
    const listing = await stores.list(scope());
    expect(listing.banner).toBe(
      `Codex is ignoring all your rules because of ${userRules()}, line 2: match example \`hg\` did not match the rule. Until it is fixed, every rule in every Codex rules file is ignored, forbidden ones included.`,
    );
    const broken = listing.stores.find((s) => s.path === userRules())!;
    expect(broken).toMatchObject({ valid: false, entryCount: 0 });
    expect(broken.error).toContain("Codex is ignoring all your rules because of this file");
    expect(listing.entries.some((e) => e.store.path === userRules())).toBe(false);
  });

  it("lists an untrusted project's rules as inactive, and loads them once the project is trusted", async () => {
    const project = path.join(ws, ".codex", "rules", "project.rules");
    await put(project, 'prefix_rule(pattern=["make"], decision="allow")\n');
    let listing = await stores.list(scope());
    expect(listing.stores.find((s) => s.path === project)!.inactive).toMatch(/not a trusted project/);
    expect(listing.entries.find((e) => e.store.path === project)).toMatchObject({ scope: "workspace", line: 1 });
    await put(config(), `[projects.${JSON.stringify(ws)}]\ntrust_level = "trusted"\n`);
    listing = await stores.list(scope());
    expect(listing.stores.find((s) => s.path === project)!.inactive).toBeUndefined();
  });
});

describe("codex stores: revoke, narrow, add in place", () => {
  it("revokes one call and keeps every other byte, comments included", async () => {
    await put(team(), TEAM);
    const entry = await byRule('prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")');
    const dry = await stores.revoke({ ...scope(), id: entry.id, dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(await readFile(team(), "utf8")).toBe(TEAM);
    const w = await stores.revoke({ ...scope(), id: entry.id, expectedVersion: entry.store.version });
    expect(w).toMatchObject({ store: team(), scope: "global", before: { line: 4 } });
    expect(w.scopeWarning).toMatch(/every project/);
    expect(await readFile(team(), "utf8")).toBe(TEAM.replace(/prefix_rule\(\n {4}pattern = \["git"[^]*?\)\n/, ""));
    // The listed version moved on: a second write from the old listing refuses.
    const npm = (await stores.list(scope())).entries.find((e) => e.rule.includes('"npm"'))!;
    await expect(stores.revoke({ ...scope(), id: npm.id, expectedVersion: entry.store.version })).rejects.toThrow(
      /changed on disk/,
    );
    await expect(stores.revoke({ ...scope(), id: "no-such-entry" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("narrows an allow rule's pattern (dropping an alternative) and makes a rule stricter, nothing wider", async () => {
    await put(team(), TEAM);
    const npm = await byRule('prefix_rule(pattern=["npm", ["test", "run"]], decision="allow")');
    const w = await stores.narrow({ ...scope(), id: npm.id, to: '["npm", "test"]' });
    expect(w).toMatchObject({ from: npm.rule, to: 'prefix_rule(pattern=["npm", "test"], decision="allow")' });
    const text = await readFile(team(), "utf8");
    expect(text).toBe(TEAM.replace('pattern=["npm", ["test", "run"]]', 'pattern=["npm", "test"]'));
    const narrowed = await byRule('prefix_rule(pattern=["npm", "test"], decision="allow")');
    await expect(stores.narrow({ ...scope(), id: narrowed.id, to: '["npm"]' })).rejects.toThrow(
      /cannot prove narrower/,
    );
    const push = await byRule('prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")');
    await expect(stores.narrow({ ...scope(), id: push.id, to: "allow" })).rejects.toThrow(/cannot prove narrower/);
    await expect(stores.narrow({ ...scope(), id: push.id, to: '["git", "push"]' })).rejects.toThrow(
      /cannot prove narrower: a prompt rule/,
    );
    await stores.narrow({ ...scope(), id: push.id, to: "deny" });
    expect(await readFile(team(), "utf8")).toContain('    decision = "forbidden",\n');
  });

  it("refuses an edit that would break the file's own examples (Codex would then ignore every rule)", async () => {
    const src = `prefix_rule(\n    pattern = ["git", ["push", "fetch"]],\n    decision = "allow",\n    match = ["git fetch origin"],\n)\n`;
    await put(team(), src);
    const e = await byRule('prefix_rule(pattern=["git", ["push", "fetch"]], decision="allow")');
    await expect(stores.narrow({ ...scope(), id: e.id, to: '["git", "push"]' })).rejects.toThrow(/ignore all rules/);
    expect(await readFile(team(), "utf8")).toBe(src);
  });

  it("adds what Codex's own don't-ask-again writes, deduplicated, creating default.rules", async () => {
    const rule = 'prefix_rule(pattern=["cargo", "publish"], decision="allow")';
    const w = await stores.add({ ...scope(), scope: "global", action: "allow", rule: '["cargo", "publish"]' });
    expect(w).toMatchObject({ store: userRules(), unchanged: false, after: { line: 1, text: rule } });
    expect(await readFile(userRules(), "utf8")).toBe(`${rule}\n`);
    const again = await stores.add({ ...scope(), scope: "global", action: "allow", rule });
    expect(again).toMatchObject({ unchanged: true, id: w.id });
    expect((await byRule(rule)).id).toBe(w.id);
    await expect(
      stores.add({ ...scope(), scope: "global", action: "deny", rule: 'prefix_rule(pattern=["x"], decision="allow")' }),
    ).rejects.toThrow(/action is deny/);
    await expect(stores.add({ ...scope(), scope: "global", action: "allow", rule: "Bash(ls)" })).rejects.toThrow(
      /prefix_rule/,
    );
  });

  it("appends to a file without a final newline as Codex does, and adds a justified prompt rule to a project file", async () => {
    await put(userRules(), '# mine\nprefix_rule(pattern=["ls"])');
    await stores.add({ ...scope(), scope: "global", action: "allow", rule: '["make"]' });
    expect(await readFile(userRules(), "utf8")).toBe(
      '# mine\nprefix_rule(pattern=["ls"])\nprefix_rule(pattern=["make"], decision="allow")\n',
    );
    const w = await stores.add({
      ...scope(),
      scope: "workspace",
      action: "ask",
      rule: 'prefix_rule(pattern=["terraform", "apply"], justification="prod")',
    });
    expect(w.store).toBe(path.join(ws, ".codex", "rules", "default.rules"));
    expect(await readFile(w.store, "utf8")).toBe(
      'prefix_rule(pattern=["terraform", "apply"], decision="prompt", justification="prod")\n',
    );
  });

  it("edits config.toml settings in place: revoke a key, narrow a mode or a trust level, add the workspace's trust", async () => {
    await put(config(), CONFIG);
    const policy = await byRule('approval_policy = "on-request"');
    await stores.narrow({ ...scope(), id: policy.id, to: "untrusted" });
    expect(await readFile(config(), "utf8")).toBe(
      CONFIG.replace('approval_policy = "on-request"', 'approval_policy = "untrusted"'),
    );
    const trust = await byRule('projects."/srv/other".trust_level = "trusted"');
    await stores.narrow({ ...scope(), id: trust.id, to: "untrusted" });
    const sandbox = await byRule('profiles.ci.sandbox_mode = "danger-full-access"');
    await expect(stores.narrow({ ...scope(), id: sandbox.id, to: "danger-full-access" })).rejects.toThrow(/narrower/);
    await stores.revoke({ ...scope(), id: sandbox.id });
    const after = await readFile(config(), "utf8");
    expect(after).toBe(
      CONFIG.replace('approval_policy = "on-request"', 'approval_policy = "untrusted"')
        .replace('trust_level = "trusted"', 'trust_level = "untrusted"')
        .replace('sandbox_mode = "danger-full-access"\n', ""),
    );
    await expect(
      stores.add({ ...scope(), scope: "global", action: "deny", rule: 'trust_level = "trusted"' }),
    ).rejects.toThrow(/allow entry/);
    const added = await stores.add({ ...scope(), scope: "global", action: "allow", rule: 'trust_level = "trusted"' });
    expect(added.after.text).toBe('trust_level = "trusted"');
    expect(await readFile(config(), "utf8")).toContain(`[projects.${JSON.stringify(ws)}]\ntrust_level = "trusted"\n`);
  });

  it("never writes a broken or read-only store", async () => {
    await put(config(), 'approval_policy = "sometimes"\n');
    await expect(
      stores.add({ ...scope(), scope: "global", action: "ask", rule: 'approval_policy = "untrusted"' }),
    ).rejects.toThrow(/never overwritten/);
    expect(await readFile(config(), "utf8")).toBe('approval_policy = "sometimes"\n');
    await put(path.join(etc, "codex", "rules", "org.rules"), 'prefix_rule(pattern=["ssh"], decision="prompt")\n');
    const org = (await stores.list(scope())).entries.find((e) => e.store.path.includes("etc"))!;
    expect(org).toMatchObject({ scope: "managed", writable: false });
    await expect(stores.revoke({ ...scope(), id: org.id })).rejects.toMatchObject({ code: "forbidden" });
  });
});
