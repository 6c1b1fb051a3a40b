// Claude Code settings that change which rules apply (issue 19 §2 "Modes and settings"): workspace trust,
// allowManagedPermissionRulesOnly, disableAutoMode and defaultMode from project files.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decide, rememberRules, type ShellParser } from "@/lib/policy";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import { claudeTrust, trustKey } from "@/lib/stores/claude-trust";
import { contextOf, inputsOf } from "@/test/support/ladder";
import { policyContextFor, resolveModes } from "../shared/ladder-context";
import { loadPolicyInputs } from "../shared/ladder-inputs";
import { dialect } from "./dialect";
import { makeSandbox, trustClaudeWorkspace, type Sandbox } from "@/test/support/stores";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});
let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("claude-settings-");
});
afterEach(() => sb.cleanup());

const bash = (command: string) => ({ tool: "Bash", input: { command } });

async function contextFor(mode?: string, managed?: string) {
  const paths = managed
    ? { ...sb.paths, managedSettingsPath: sb.write("managed/managed-settings.json", managed) }
    : sb.paths;
  const inputs = await loadPolicyInputs({ ...paths, ...inputsOf("claude-code") });
  const modes = resolveModes(dialect, mode, inputs);
  const ctx = policyContextFor({
    ...contextOf("claude-code", sb.workspace, sb.home),
    mode: modes.modeEffective,
    workspace: sb.workspace,
    home: sb.home,
    inputs,
    shell,
    protectedPaths: [],
  });
  return { inputs, ctx, modes };
}

describe("workspace trust (permissions: Project allow rules and workspace trust)", () => {
  // "permissions.allow rules and permissions.additionalDirectories entries in a project's .claude/settings.json …
  // Claude Code applies them only after you accept the workspace trust dialog … deny and ask rules aren't affected"
  it("an untrusted workspace's allow rules and additional directories are held; its deny rules stand", async () => {
    sb.write(
      ".claude/settings.json",
      JSON.stringify({
        permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)"], additionalDirectories: ["/srv/x"] },
      }),
    );
    const { inputs, ctx } = await contextFor();
    expect(inputs.trust).toMatchObject({ trusted: false, key: sb.workspace });
    expect(inputs.held).toMatchObject({ rules: 1, directories: 1 });
    expect(inputs.additionalDirectories).toEqual([]);
    const d = decide(bash("npm test"), ctx);
    expect(d.decision).toBe("ask");
    expect(d.reason).toMatch(/1 allow rule held back: workspace not trusted/);
    expect(decide(bash("curl https://x"), ctx).decision).toBe("deny");
  });

  // "set projects["<path>"].hasTrustDialogAccepted to true in ~/.claude.json"
  it("a trusted workspace (~/.claude.json projects[path].hasTrustDialogAccepted) applies them", async () => {
    sb.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(npm test)"] } }));
    trustClaudeWorkspace(sb.home, sb.workspace);
    const { inputs, ctx } = await contextFor();
    expect(inputs.trust?.trusted).toBe(true);
    expect(inputs.held).toBeNull();
    expect(decide(bash("npm test"), ctx).decision).toBe("allow");
  });

  // "Anywhere else: Claude Code holds the file's rules like project settings."
  it("the local settings file is held too until the folder is trusted; user settings always apply", async () => {
    sb.write(".claude/settings.local.json", JSON.stringify({ permissions: { allow: ["Bash(npm test)"] } }));
    sb.write("~/.claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(make)"] } }));
    const { ctx } = await contextFor();
    expect(decide(bash("npm test"), ctx).decision).toBe("ask");
    expect(decide(bash("make"), ctx).decision).toBe("allow");
  });

  // "In a repository, Claude Code keys the trust on the git repository root … In a worktree, it uses the main checkout's root"
  it("trust is keyed on the repository root, and on the main checkout for a worktree", () => {
    const repo = path.join(sb.root, "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, "packages/app"), { recursive: true });
    expect(trustKey(path.join(repo, "packages/app"))).toBe(repo);
    const wt = path.join(sb.root, "wt");
    mkdirSync(wt);
    writeFileSync(path.join(wt, ".git"), `gitdir: ${path.join(repo, ".git/worktrees/wt")}\n`);
    expect(trustKey(wt)).toBe(repo);
    trustClaudeWorkspace(sb.home, repo);
    expect(claudeTrust(path.join(repo, "packages/app"), sb.home).trusted).toBe(true);
    expect(claudeTrust(wt, sb.home).trusted).toBe(true);
  });

  it("an unreadable or malformed ~/.claude.json counts as untrusted", () => {
    sb.write("~/.claude.json", "{not json");
    expect(claudeTrust(sb.workspace, sb.home)).toMatchObject({ trusted: false });
  });
});

describe("allowManagedPermissionRulesOnly (settings-reference)", () => {
  // "Claude Code then ignores rules in user, project, local, and --settings files … and stops saving new rules"
  it("only managed allow rules apply; other files' deny rules still stand (stricter); nothing is remembered", async () => {
    trustClaudeWorkspace(sb.home, sb.workspace);
    sb.write(
      ".claude/settings.json",
      JSON.stringify({ permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl *)"] } }),
    );
    sb.write("~/.claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(make)"] } }));
    const { inputs, ctx } = await contextFor(
      undefined,
      JSON.stringify({ allowManagedPermissionRulesOnly: true, permissions: { allow: ["Bash(npm run lint)"] } }),
    );
    expect(inputs.managedRulesOnly).toBe(true);
    expect(decide(bash("npm test"), ctx).decision).toBe("ask");
    expect(decide(bash("make"), ctx).decision).toBe("ask");
    expect(decide(bash("npm run lint"), ctx).decision).toBe("allow");
    expect(decide(bash("curl x"), ctx).decision).toBe("deny");
    expect(rememberRules(bash("npm test"), ctx)).toEqual({ session: [], workspace: [] });
  });

  it("is a managed-only key: set in a project file it changes nothing", async () => {
    trustClaudeWorkspace(sb.home, sb.workspace);
    sb.write(
      ".claude/settings.json",
      JSON.stringify({ allowManagedPermissionRulesOnly: true, permissions: { allow: ["Bash(npm test)"] } }),
    );
    const { inputs, ctx } = await contextFor();
    expect(inputs.managedRulesOnly).toBe(false);
    expect(decide(bash("npm test"), ctx).decision).toBe("allow");
  });
});

describe("modes from settings (permission-modes: Which mode a session starts in)", () => {
  // "To prevent bypassPermissions or auto mode from being used, set … permissions.disableAutoMode to "disable" in any settings file"
  it("disableAutoMode in any settings file evaluates auto as default", async () => {
    sb.write("~/.claude/settings.json", JSON.stringify({ permissions: { disableAutoMode: "disable" } }));
    const { modes, ctx } = await contextFor("auto");
    expect(modes).toMatchObject({ modeBase: "auto", modeEffective: "default" });
    expect(decide({ tool: "Edit", input: { file_path: `${sb.workspace}/a.ts` } }, ctx).decision).toBe("ask");
  });

  // "If you set "auto" in .claude/settings.json or .claude/settings.local.json, the value doesn't take effect …
  // If you set "bypassPermissions" in those two files, it doesn't take effect either, and the session starts in Manual mode."
  it.each([
    [".claude/settings.json", "bypassPermissions", "default"],
    [".claude/settings.local.json", "bypassPermissions", "default"],
    [".claude/settings.json", "auto", "default"],
    [".claude/settings.json", "acceptEdits", "accept-edits"],
    ["~/.claude/settings.json", "bypassPermissions", "yolo"],
    ["~/.claude/settings.json", "auto", "auto"],
  ])("defaultMode in %s = %s → %s", async (file, mode, want) => {
    sb.write(file, JSON.stringify({ permissions: { defaultMode: mode } }));
    const { modes } = await contextFor();
    expect(modes.modeEffective).toBe(want);
  });
});
