/**
 * Store discovery on real folders (own temp dir; HOME, CODEX_HOME and /etc/codex injected), after openai/codex
 * core/src/exec_policy_tests.rs (loads_policies_from_policy_subdirectory, ignores_policies_outside_policy_dir,
 * ignores_rules_from_untrusted_project_layers, loads_policies_from_multiple_config_layers,
 * exec_policies_require_project_trust_without_config_toml) and config_loader (project root, trust).
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { python, useCodexParsers } from "@/test/support/codex";
import { matchRules } from "../policy";
import { discoverCodexStores, findRepoRoot, listRulesFiles } from "./discover";
import { appendCodexAmendment, writeCodexFile } from "./write";

beforeAll(useCodexParsers);

let root: string;
let home: string;
let etc: string;
let repo: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "codex-stores-"));
  home = path.join(root, "home");
  etc = path.join(root, "etc-codex");
  repo = path.join(root, "repo");
  await mkdir(path.join(home, ".codex", "rules"), { recursive: true });
  await mkdir(path.join(repo, ".git"), { recursive: true });
  await mkdir(path.join(repo, "pkg", "app", ".codex", "rules"), { recursive: true });
  await mkdir(path.join(repo, ".codex", "rules"), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const put = async (file: string, text: string) => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
};
const match = (s: Awaited<ReturnType<typeof discoverCodexStores>>, argv: string[]) =>
  matchRules(s.policy.effective, argv, { resolveHostExecutables: true, cwd: s.paths.cwd }).map((m) => [
    m.decision,
    path.relative(root, m.rule.source.file),
  ]);

describe("discoverCodexStores", () => {
  it("reads every regular .rules file in the rules folders only (loads_policies_from_policy_subdirectory, ignores_policies_outside_policy_dir)", async () => {
    await put(path.join(home, ".codex", "rules", "b.rules"), 'prefix_rule(pattern=["git"], decision="prompt")\n');
    await put(
      path.join(home, ".codex", "rules", "a.rules"),
      'prefix_rule(pattern=["git", "push"], decision="forbidden")\n',
    );
    await put(path.join(home, ".codex", "rules", "notes.txt"), 'prefix_rule(pattern=["ls"], decision="forbidden")\n');
    await put(path.join(home, ".codex", "outside.rules"), 'prefix_rule(pattern=["ls"], decision="forbidden")\n');
    await put(path.join(root, "elsewhere.rules"), 'prefix_rule(pattern=["ls"], decision="forbidden")\n');
    await symlink(path.join(root, "elsewhere.rules"), path.join(home, ".codex", "rules", "linked.rules"));
    await mkdir(path.join(home, ".codex", "rules", "dir.rules"));
    expect((await listRulesFiles(path.join(home, ".codex", "rules"))).map((f) => path.basename(f))).toEqual([
      "a.rules",
      "b.rules",
    ]);
    const s = await discoverCodexStores({ home, etcRoot: etc, cwd: repo }, python);
    expect(match(s, ["git", "push"])).toEqual([
      ["forbidden", "home/.codex/rules/a.rules"],
      ["prompt", "home/.codex/rules/b.rules"],
    ]);
    expect(match(s, ["ls"])).toEqual([]);
  });

  it("project rules load from the project root down to cwd only when trusted (ignores_rules_from_untrusted_project_layers)", async () => {
    await put(path.join(repo, ".codex", "rules", "team.rules"), 'prefix_rule(pattern=["npm"], decision="prompt")\n');
    await put(
      path.join(repo, "pkg", "app", ".codex", "rules", "app.rules"),
      'prefix_rule(pattern=["npm", "publish"], decision="forbidden")\n',
    );
    const cwd = path.join(repo, "pkg", "app");
    const untrusted = await discoverCodexStores({ home, etcRoot: etc, cwd }, python);
    expect(untrusted.projectRoot).toBe(repo);
    expect(match(untrusted, ["npm", "publish"])).toEqual([]);
    const listed = untrusted.files.filter((f) => f.kind === "rules");
    expect(listed.map((f) => [path.relative(root, f.path), f.active])).toEqual([
      ["repo/.codex/rules/team.rules", false],
      ["repo/pkg/app/.codex/rules/app.rules", false],
    ]);
    expect(listed[0]!.note).toContain("not a trusted project");
    expect(untrusted.modes).toMatchObject({ approvalPolicy: "on-request", sandboxMode: "read-only" });

    await put(
      path.join(home, ".codex", "config.toml"),
      `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`,
    );
    const trusted = await discoverCodexStores({ home, etcRoot: etc, cwd }, python);
    expect(match(trusted, ["npm", "publish"])).toEqual([
      ["prompt", "repo/.codex/rules/team.rules"],
      ["forbidden", "repo/pkg/app/.codex/rules/app.rules"],
    ]);
    expect(trusted.modes).toMatchObject({ approvalPolicy: "on-request", sandboxMode: "workspace-write" });
  });

  it("an untrusted mark wins for that folder and sets the untrusted defaults", async () => {
    await put(path.join(repo, ".codex", "rules", "team.rules"), 'prefix_rule(pattern=["npm"], decision="allow")\n');
    await put(
      path.join(home, ".codex", "config.toml"),
      `[projects.${JSON.stringify(repo)}]\ntrust_level = "untrusted"\n`,
    );
    const s = await discoverCodexStores({ home, etcRoot: etc, cwd: repo }, python);
    expect(match(s, ["npm", "i"])).toEqual([]);
    expect(s.modes).toMatchObject({ approvalPolicy: "untrusted", sandboxMode: "workspace-write" });
    expect(s.files.find((f) => f.path.endsWith("team.rules"))!.note).toContain("marked untrusted");
  });

  it("loads_policies_from_multiple_config_layers: system, requirements, user, project; strictest wins across files", async () => {
    await put(path.join(etc, "rules", "org.rules"), 'prefix_rule(pattern=["curl"], decision="prompt")\n');
    await put(
      path.join(etc, "requirements.toml"),
      '[rules]\nprefix_rules = [{ pattern = [{ token = "curl" }, { any_of = ["-X", "--request"] }], decision = "forbidden" }]\n',
    );
    await put(path.join(home, ".codex", "rules", "default.rules"), 'prefix_rule(pattern=["curl"], decision="allow")\n');
    await put(
      path.join(home, ".codex", "config.toml"),
      `approval_policy = "never"\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`,
    );
    const s = await discoverCodexStores({ home, etcRoot: etc, cwd: repo }, python);
    expect(match(s, ["curl", "-X", "POST"])).toEqual([
      ["prompt", "etc-codex/rules/org.rules"],
      ["allow", "home/.codex/rules/default.rules"],
      ["forbidden", "etc-codex/requirements.toml"],
    ]);
    expect(s.modes.approvalPolicy).toBe("never");
    expect(s.files.filter((f) => f.kind === "requirements")[0]).toMatchObject({ readOnly: true, exists: true });
  });

  it("one broken file empties the whole policy and is reported with its line", async () => {
    await put(path.join(home, ".codex", "rules", "a.rules"), 'prefix_rule(pattern=["rm"], decision="forbidden")\n');
    await put(path.join(home, ".codex", "rules", "b.rules"), '# mine\nprefix_rule(pattern=["git"], decision="deny")\n');
    const s = await discoverCodexStores({ home, etcRoot: etc, cwd: repo }, python);
    expect(s.policy.failure).toEqual({
      file: path.join(home, ".codex", "rules", "b.rules"),
      line: 2,
      message: "invalid decision: deny",
    });
    expect(match(s, ["rm", "-rf", "/"])).toEqual([]);
    expect(s.files.find((f) => f.path.endsWith("b.rules"))).toMatchObject({ readOnly: true, error: { line: 2 } });
  });

  it("the .codex folder that is CODEX_HOME is not a project layer", async () => {
    await put(path.join(home, ".codex", "rules", "default.rules"), 'prefix_rule(pattern=["ls"], decision="prompt")\n');
    const s = await discoverCodexStores({ home, etcRoot: etc, cwd: home }, python);
    expect(s.files.filter((f) => f.kind === "rules").map((f) => f.layer)).toEqual(["user"]);
  });

  it("finds the main repository of a worktree for trust", async () => {
    const wt = path.join(root, "wt");
    await mkdir(path.join(repo, ".git", "worktrees", "wt"), { recursive: true });
    await put(path.join(wt, ".git"), `gitdir: ${path.join(repo, ".git", "worktrees", "wt")}\n`);
    expect(await findRepoRoot(path.join(wt))).toBe(repo);
    expect(await findRepoRoot(path.join(repo, "pkg"))).toBe(repo);
  });
});

describe("writes", () => {
  it("appends what Codex's don't-ask-again appends, once", async () => {
    const codexHome = path.join(home, ".codex");
    expect(await appendCodexAmendment(codexHome, ["cargo", "build"])).toMatchObject({ changed: true });
    expect(await appendCodexAmendment(codexHome, ["cargo", "build"])).toMatchObject({ changed: false });
    expect(await readFile(path.join(codexHome, "rules", "default.rules"), "utf8")).toBe(
      'prefix_rule(pattern=["cargo", "build"], decision="allow")\n',
    );
  });
  it("refuses to write over a file that changed since it was read", async () => {
    const file = path.join(home, ".codex", "rules", "x.rules");
    await put(file, "# one\n");
    const s = await discoverCodexStores({ home, etcRoot: etc, cwd: repo }, python);
    const entry = s.files.find((f) => f.path === file)!;
    await writeFile(file, "# changed meanwhile\n");
    await expect(
      writeCodexFile({ file, root: path.join(home, ".codex"), expectedVersion: entry.version, content: "# two\n" }),
    ).rejects.toThrow();
    expect(await readFile(file, "utf8")).toBe("# changed meanwhile\n");
  });
});
