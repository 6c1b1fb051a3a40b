// Issue 10 #1/#2 and issue 9 (protected folder) at the boundary where stores become a PolicyContext.
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decide, type ShellParser } from "@/lib/policy";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import { cockpitProtectedPaths } from "@/lib/stores/policy-context";
import { contextOf, inputsOf } from "@/test/support/ladder";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import { policyContextFor } from "./ladder-context";
import { loadPolicyInputs } from "./ladder-inputs";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});
let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("policy-ctx-");
});
afterEach(() => sb.cleanup());

const contextFor = async (agent: "commandcode" | "claude-code", mode: "default" | "plan" | "yolo" = "default") => {
  const inputs = await loadPolicyInputs({ ...sb.paths, ...inputsOf(agent) });
  return {
    inputs,
    ctx: policyContextFor({
      ...contextOf(agent, sb.workspace, sb.home),
      mode,
      workspace: sb.workspace,
      home: sb.home,
      inputs,
      shell,
      protectedPaths: [],
    }),
  };
};

// The seed passage (002, disableBypass's string form) is quoted in docs/policy.md, conformance fix #1.
describe('disableBypass: "disable" (the string form) keeps the file valid', () => {
  it("a file using the seed's own example keeps its deny rules, and yolo is evaluated as default", async () => {
    sb.write(
      ".commandcode/settings.json",
      '{"permissions": {"deny": ["Shell(git reset --hard*)"], "allow": ["Shell(git status:*)"], "disableBypass": "disable"}}',
    );
    const { inputs, ctx } = await contextFor("commandcode", "yolo");
    expect(inputs.stores.every((s) => s.valid)).toBe(true);
    expect(inputs.disableBypass).toBe(true);
    expect(decide({ tool: "shell_command", input: { command: "git reset --hard" } }, ctx).decision).toBe("deny");
    expect(decide({ tool: "edit_file", input: { file_path: "a.ts" } }, ctx).decision).toBe("ask");
  });
  it("unknown values of one field never discard the file's deny rules (safer reading per field)", async () => {
    sb.write(
      ".commandcode/settings.json",
      '{"permissions": {"deny": ["Read(secrets/**)"], "disableBypass": "maybe", "defaultMode": 5, "additionalDirectories": "x"}}',
    );
    const { inputs, ctx } = await contextFor("commandcode", "yolo");
    expect(inputs.stores.every((s) => s.valid)).toBe(true);
    expect(inputs.disableBypass).toBe(true);
    expect(inputs.additionalDirectories).toEqual([]);
    expect(decide({ tool: "read_file", input: { file_path: "secrets/k" } }, ctx).decision).toBe("deny");
  });
  it("an invalid file shows invalid and its scope fails closed (ask, never allow)", async () => {
    sb.write(".commandcode/settings.json", '{"permissions": {"deny": ["Read(secrets/**)"],, }');
    const { inputs, ctx } = await contextFor("commandcode", "yolo");
    expect(inputs.stores.find((s) => s.path.endsWith(".commandcode/settings.json"))?.valid).toBe(false);
    expect(ctx.invalidStores?.length).toBe(1);
    const d = decide({ tool: "read_file", input: { file_path: "secrets/k" } }, ctx);
    expect(d).toMatchObject({ decision: "ask", step: "invalid-store", safetyCheck: true });
  });
});

describe("plan file and skills from the agent's real locations (seed 002 «Запись файла плана», «каталоги skills»)", () => {
  it("Command Code: ~/.commandcode/plans is writable in plan mode; skill dirs are readable", async () => {
    const { ctx } = await contextFor("commandcode", "plan");
    expect(ctx.planDir).toBe(path.join(sb.home, ".commandcode/plans"));
    const plan = {
      tool: "write_file",
      input: { file_path: path.join(sb.home, ".commandcode/plans/p.md"), content: "x" },
    };
    expect(decide(plan, ctx)).toMatchObject({ decision: "allow", step: "plan-mode" });
    const skill = { tool: "read_file", input: { file_path: path.join(sb.home, ".commandcode/skills/x/SKILL.md") } };
    expect(decide(skill, { ...ctx, mode: "default" }).decision).toBe("allow");
  });
  it("Claude Code: ~/.claude/plans and ~/.claude/skills", async () => {
    const { ctx } = await contextFor("claude-code", "plan");
    expect(ctx.planDir).toBe(path.join(sb.home, ".claude/plans"));
    expect(ctx.skillDirs).toContain(path.join(sb.home, ".claude/skills"));
  });
});

describe("issue 9: the cockpit data folder is protected wherever the context is built", () => {
  it("defaults to COCKPIT_DATA (resolved) and a read of the credential asks with the protected flag", async () => {
    const dirs = cockpitProtectedPaths();
    expect(dirs[0]).toBe(path.resolve(process.env.COCKPIT_DATA || ".cockpit"));
    const inputs = await loadPolicyInputs({ ...sb.paths, ...inputsOf("claude-code") });
    const ctx = policyContextFor({
      ...contextOf("claude-code", sb.workspace, sb.home),
      mode: "yolo",
      workspace: sb.workspace,
      home: sb.home,
      inputs,
      shell,
    });
    const d = decide({ tool: "Bash", input: { command: `cat ${dirs[0]}/local-credential.json` } }, ctx);
    expect(d).toMatchObject({ decision: "ask", protected: true, safetyCheck: true });
  });
});
