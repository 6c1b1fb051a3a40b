import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decideWithStores, effectiveMode } from "./decide";
import { plainHost } from "./host";
import { loadGeminiShell } from "./io/shell-wasm";
import { AUTO_SAVED_HELP, loadGeminiStores } from "./io/stores";
import { mergePolicySettings, settingsRules } from "./settings-rules";
import type { GeminiShell } from "./shell";
import { parseTrustedFolders, workspaceTrust } from "./trust";

let shell: GeminiShell;
let root: string;
let home: string;
let cwd: string;
let sys: string;
beforeAll(async () => {
  shell = await loadGeminiShell();
});
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "gemini-stores-"));
  home = path.join(root, "home");
  cwd = path.join(root, "work", "proj");
  sys = path.join(root, "etc");
  await mkdir(path.join(home, ".gemini", "policies"), { recursive: true });
  await mkdir(path.join(cwd, ".gemini", "policies"), { recursive: true });
  await mkdir(path.join(sys, "policies"), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const w = (file: string, text: string) => writeFile(file, text);
const trustCwd = () => w(path.join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [cwd]: "TRUST_FOLDER" }));

describe("Gemini stores on disk", () => {
  it("lists every tier; a broken file is invalid alone; workspace policies are shown but not loaded", async () => {
    await trustCwd();
    await w(
      path.join(home, ".gemini", "policies", "auto-saved.toml"),
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["npm"]\ndecision = "allow"\npriority = 950\n',
    );
    await w(path.join(home, ".gemini", "policies", "broken.toml"), "[[rule]\n");
    await w(
      path.join(cwd, ".gemini", "policies", "team.toml"),
      '[[rule]]\ntoolName = "glob"\ndecision = "deny"\npriority = 1\n',
    );
    await w(
      path.join(sys, "policies", "admin.toml"),
      '[[rule]]\ntoolName = "web_fetch"\ndecision = "deny"\npriority = 1\n',
    );
    await chmod(path.join(sys, "policies"), 0o755);
    const s = await loadGeminiStores({ home, cwd, systemDir: sys });
    const byName = (n: string) => s.files.find((f) => f.path.endsWith(n))!;
    expect(byName("auto-saved.toml")).toMatchObject({
      tier: "user",
      loaded: true,
      invalid: false,
      help: AUTO_SAVED_HELP,
    });
    expect(byName("broken.toml")).toMatchObject({ invalid: true, rules: [] });
    expect(byName("team.toml")).toMatchObject({ tier: "workspace", loaded: false });
    expect(byName("team.toml").notLoadedReason).toMatch(/not loaded by this Gemini version/);
    expect(byName("admin.toml")).toMatchObject({ tier: "admin", loaded: true, readOnly: true });
    expect(byName("write.toml")).toMatchObject({ tier: "default", readOnly: true });
    expect(s.rules.some((r) => r.source === "User: auto-saved.toml" && r.priority === 4.95)).toBe(true);
    expect(s.rules.some((r) => r.toolName === "glob" && r.decision === "deny")).toBe(false);
    // The remembered npm prefix allows npm test; the workspace deny on glob is not in force.
    const v = decideWithStores({
      call: { tool: "run_shell_command", input: { command: "npm test" } },
      stores: s,
      shell,
      host: plainHost(cwd, home),
    });
    expect(v).toMatchObject({ decision: "allow" });
    expect(v.rule?.origin).toMatchObject({ kind: "toml", line: 1, tier: "user" });
  });

  it("skips an admin directory that others can write, as Gemini does", async () => {
    await w(
      path.join(sys, "policies", "admin.toml"),
      '[[rule]]\ntoolName = "web_fetch"\ndecision = "deny"\npriority = 1\n',
    );
    await chmod(path.join(sys, "policies"), 0o777);
    const s = await loadGeminiStores({ home, cwd, systemDir: sys });
    const admin = s.files.find((f) => f.tier === "admin")!;
    expect(admin.loaded).toBe(false);
    expect(admin.notLoadedReason).toMatch(/writable by group or others/);
  });

  it("settings-derived rules with their priorities, including the hidden narrowing denies", async () => {
    await trustCwd();
    await w(
      path.join(home, ".gemini", "settings.json"),
      `{ // user settings\n "tools": { "allowed": ["run_shell_command(git status)", "glob"], "exclude": ["web_fetch"] },\n "mcpServers": { "gh": { "command": "x", "trust": true } } }`,
    );
    await w(
      path.join(cwd, ".gemini", "settings.json"),
      '{ "tools": { "exclude": ["google_web_search"], "core": ["read_file"] } }',
    );
    const s = await loadGeminiStores({ home, cwd, systemDir: sys });
    const pri = (src: string) => s.rules.filter((r) => r.source === src).map((r) => r.priority);
    expect(pri("Settings (Tools Allowed)")).toEqual([4.3, 4.3]);
    expect(pri("Settings (Tools Allowed) (Narrowing Enforcement)")).toEqual([4.29]);
    expect(pri("Settings (Tools Excluded)")).toEqual([4.4, 4.4]);
    expect(pri("Settings (Core Tools)")).toEqual([4.25]);
    expect(pri("Settings (Core Tools Allowlist Enforcement)")).toEqual([4.24]);
    expect(pri("Settings (MCP Trusted)")).toEqual([4.2]);
    const d = (command: string) =>
      decideWithStores({
        call: { tool: "run_shell_command", input: { command } },
        stores: s,
        shell,
        host: plainHost(cwd, home),
      });
    expect(d("git status").decision).toBe("allow");
    expect(d("git push").decision).toBe("deny");
    expect(d("git push").rule?.source).toBe("Settings (Tools Allowed) (Narrowing Enforcement)");
    expect(d("git push").rule?.origin?.file).toBe(path.join(home, ".gemini", "settings.json"));
  });

  it("an untrusted folder ignores the workspace's settings and forces the default mode", async () => {
    await w(path.join(cwd, ".gemini", "settings.json"), '{ "tools": { "allowed": ["write_file"] } }');
    const s = await loadGeminiStores({ home, cwd, systemDir: sys });
    expect(s.trust.trusted).toBe(false);
    expect(s.settings.find((x) => x.scope === "workspace")).toMatchObject({ exists: true, loaded: false });
    const v = decideWithStores({
      call: { tool: "write_file", input: { file_path: "a.txt", content: "x" } },
      stores: s,
      mode: "yolo",
      shell,
      host: plainHost(cwd, home),
    });
    expect(v.mode).toBe("default");
    expect(v.decision).toBe("ask");
    expect(v.trace.join("\n")).toMatch(/not trusted/);
  });
});

describe("trustedFolders.json (utils/trust.ts, trustedFolders.test.ts)", () => {
  const file = parseTrustedFolders(
    JSON.stringify({
      "/home/u/code": "TRUST_FOLDER",
      "/home/u/code/vendor": "DO_NOT_TRUST",
      "/srv/app/sub": "TRUST_PARENT",
    }),
  );
  it("the longest matching rule path wins", () => {
    expect(workspaceTrust({ file, workspace: "/home/u/code/app" }).trusted).toBe(true);
    expect(workspaceTrust({ file, workspace: "/home/u/code/vendor/lib" })).toMatchObject({
      trusted: false,
      source: "file",
    });
  });
  it("TRUST_PARENT trusts the rule's parent directory", () => {
    expect(workspaceTrust({ file, workspace: "/srv/app/other" }).trusted).toBe(true);
  });
  it("an uncovered folder is untrusted; the environment and the setting override the file", () => {
    expect(workspaceTrust({ file, workspace: "/tmp/x" })).toMatchObject({ trusted: false, source: "default" });
    expect(workspaceTrust({ file, workspace: "/tmp/x", env: { GEMINI_CLI_TRUST_WORKSPACE: "true" } }).trusted).toBe(
      true,
    );
    expect(
      workspaceTrust({ file, workspace: "/home/u/code", env: { GEMINI_CLI_TRUST_WORKSPACE: "false" } }).trusted,
    ).toBe(false);
    expect(workspaceTrust({ file, workspace: "/tmp/x", folderTrustEnabled: false }).trusted).toBe(true);
  });
  it("a broken file is reported and trusts nothing", () => {
    const bad = parseTrustedFolders("[1,2]");
    expect(bad.error).toMatch(/not a valid JSON object/);
    expect(workspaceTrust({ file: bad, workspace: "/home/u/code" }).trusted).toBe(false);
  });
});

describe("settings merge (packages/cli/src/config/settings.ts mergeSettings)", () => {
  it("workspace overrides user, tools.exclude is a union, system wins last", () => {
    const { settings } = mergePolicySettings(
      [
        { scope: "user", file: "u", settings: { tools: { allowed: ["a"], exclude: ["x"] } } },
        { scope: "workspace", file: "w", settings: { tools: { allowed: ["b"], exclude: ["y"] } } },
        { scope: "system", file: "s", settings: { tools: { exclude: ["z"] } } },
      ],
      true,
    );
    expect(settings.tools).toEqual({ allowed: ["b"], exclude: ["x", "y", "z"] });
  });
  it("headless runs exclude ask_user (config.ts extraExcludes)", () => {
    expect(settingsRules({}, { interactive: false }).map((r) => `${r.toolName}:${r.decision}`)).toEqual([
      "ask_user:deny",
    ]);
  });
  it("effective mode: yolo from settings is ignored; disableYoloMode refuses yolo", () => {
    expect(effectiveMode(undefined, { trusted: true, defaultMode: "yolo" }).mode).toBe("default");
    expect(effectiveMode(undefined, { trusted: true, defaultMode: "auto_edit" }).mode).toBe("autoEdit");
    expect(effectiveMode("yolo", { trusted: true, yoloDisabled: true }).error).toMatch(/disabled/);
  });
});
