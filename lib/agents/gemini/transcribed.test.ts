/**
 * Table tests transcribed from Gemini CLI's own tests (google-gemini/gemini-cli packages/core/src/policy/*.test.ts,
 * as shipped compiled in @google/gemini-cli-core 0.61.0). Each row cites its file and test name; the expected
 * decision is the one that test asserts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { builtinPolicyFiles } from "./builtin";
import { decideGemini, type EngineOptions } from "./engine";
import { plainHost } from "./host";
import { loadGeminiShell } from "./io/shell-wasm";
import { buildArgsPatterns, escapeRegex, isSafeRegExp, stableStringify } from "./patterns";
import type { GeminiShell } from "./shell";
import { stripShellWrapper } from "./shell";
import { parsePolicyFile } from "./toml-policy";
import type { GeminiCall, GeminiDecision, GeminiMode, GeminiRule } from "./types";

let shell: GeminiShell;
beforeAll(async () => {
  shell = await loadGeminiShell();
});

const host = plainHost("/work/project", "/home/u");
const prefixRule = (
  prefix: string,
  decision: GeminiDecision = "allow",
  priority = 1.01,
  extra: Partial<GeminiRule> = {},
): GeminiRule => ({
  toolName: "run_shell_command",
  argsPattern: new RegExp(buildArgsPatterns(undefined, prefix)[0]!),
  decision,
  priority,
  source: "test",
  ...extra,
});
const rule = (
  toolName: string,
  decision: GeminiDecision,
  priority = 1,
  extra: Partial<GeminiRule> = {},
): GeminiRule => ({
  toolName,
  decision,
  priority,
  source: "test",
  ...extra,
});
const sh = (command: string, extra: Record<string, unknown> = {}): GeminiCall => ({
  tool: "run_shell_command",
  input: { command, ...extra },
});

interface Row {
  cite: string;
  rules: GeminiRule[];
  call: GeminiCall;
  expect: GeminiDecision;
  mode?: GeminiMode;
  nonInteractive?: boolean;
  trusted?: boolean;
  defaults?: boolean;
}

const SS = "shell-safety.test.ts › Shell Safety Policy ›";
const PE = "policy-engine.test.ts ›";
const rows: Row[] = [
  {
    cite: `${SS} SHOULD match "git log" exactly`,
    rules: [prefixRule("git log")],
    call: sh("git log"),
    expect: "allow",
  },
  {
    cite: `${SS} SHOULD match "git log" with arguments`,
    rules: [prefixRule("git log")],
    call: sh("git log --oneline"),
    expect: "allow",
  },
  {
    cite: `${SS} SHOULD NOT match "git logout" when prefix is "git log" (strict word boundary)`,
    rules: [prefixRule("git log")],
    call: sh("git logout"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow "git log && rm -rf /" completely when prefix is "git log" (compound command safety)`,
    rules: [prefixRule("git log")],
    call: sh("git log && rm -rf /"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow "git log; rm -rf /" (semicolon separator)`,
    rules: [prefixRule("git log")],
    call: sh("git log; rm -rf /"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow "git log || rm -rf /" (OR separator)`,
    rules: [prefixRule("git log")],
    call: sh("git log || rm -rf /"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow "git log &&& rm -rf /" when prefix is "git log" (parse failure)`,
    rules: [prefixRule("git log")],
    call: sh("git log &&& rm -rf /"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow command substitution $(rm -rf /)`,
    rules: [prefixRule("echo")],
    call: sh("echo $(rm -rf /)"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD allow command substitution if inner command is ALSO allowed`,
    rules: [prefixRule("echo", "allow", 2), prefixRule("git", "allow", 2)],
    call: sh("echo $(git log)"),
    expect: "allow",
  },
  {
    cite: `${SS} SHOULD NOT allow command substitution with backticks \`rm -rf /\``,
    rules: [prefixRule("git log")],
    call: sh("git log `rm -rf /`"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow process substitution <(rm -rf /)`,
    rules: [prefixRule("git log")],
    call: sh("git log <(rm -rf /)"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow process substitution >(rm -rf /)`,
    rules: [prefixRule("git log")],
    call: sh("git log >(rm -rf /)"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow piped commands "git log | rm -rf /"`,
    rules: [prefixRule("git log")],
    call: sh("git log | rm -rf /"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow argument injection via --arg=$(rm -rf /)`,
    rules: [prefixRule("git log")],
    call: sh("git log --format=$(rm -rf /)"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD NOT allow complex nested commands "git log && echo $(git log | rm -rf /)"`,
    rules: [prefixRule("git log"), prefixRule("echo")],
    call: sh("git log && echo $(git log | rm -rf /)"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD allow complex allowed commands "git log && echo $(git log)"`,
    rules: [prefixRule("git log", "allow", 2), prefixRule("echo", "allow", 2)],
    call: sh("git log && echo $(git log)"),
    expect: "allow",
  },
  {
    cite: `${SS} SHOULD NOT allow generic redirection > /tmp/test`,
    rules: [prefixRule("git log")],
    call: sh("git log > /tmp/test"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD allow generic redirection > /tmp/test if allowRedirection is true`,
    rules: [prefixRule("git log", "allow", 2, { allowRedirection: true })],
    call: sh("git log > /tmp/test"),
    expect: "allow",
  },
  {
    cite: `${SS} SHOULD NOT allow PowerShell @(...) usage if it implies code execution`,
    rules: [prefixRule("git log")],
    call: sh("git log @(Get-Process)"),
    expect: "ask_user",
  },
  {
    cite: `${SS} SHOULD match DENY rule even if nested/chained with unknown command`,
    rules: [prefixRule("git push", "deny", 2)],
    call: sh('git commit -m "msg" && git push'),
    expect: "deny",
  },
  {
    cite: `${PE} should NOT downgrade ALLOW to ASK_USER for quoted redirection chars`,
    rules: [rule("run_shell_command", "allow", 2)],
    call: sh('echo "-> arrow"'),
    expect: "allow",
  },
  {
    cite: `${PE} should require confirmation for a compound command with redirection even if individual commands are allowed`,
    rules: [prefixRule("mkdir", "allow", 2), prefixRule("echo", "allow", 2)],
    call: sh('mkdir -p "bar" && echo "hello" > bar/test.md'),
    expect: "ask_user",
  },
  {
    cite: `${PE} should allow redirected shell commands in AUTO_EDIT mode if individual commands are allowed`,
    rules: [prefixRule("echo", "allow", 2)],
    call: sh('echo "hello" > test.txt'),
    mode: "autoEdit",
    expect: "allow",
  },
  {
    cite: `${PE} should NOT downgrade to ASK_USER for redirected commands in YOLO mode even without sandbox`,
    rules: [prefixRule("echo", "allow", 2)],
    call: sh('echo "hello" > test.txt'),
    mode: "yolo",
    expect: "allow",
  },
  {
    cite: `${PE} should NOT treat commands with git in arguments or URLs as Git commands`,
    rules: [rule("run_shell_command", "ask_user", 1)],
    call: sh("echo git"),
    trusted: false,
    expect: "allow",
  },
  {
    cite: `${PE} should detect chained Git commands as Git commands and force ASK_USER in untrusted workspaces`,
    rules: [rule("run_shell_command", "allow", 1)],
    call: sh('echo "hello" && git status'),
    trusted: false,
    expect: "ask_user",
  },
  {
    cite: `${PE} should detect Git commands prefixed with environment variable assignments`,
    rules: [rule("run_shell_command", "allow", 1)],
    call: sh("VAR=val git status"),
    trusted: false,
    expect: "ask_user",
  },
  {
    cite: `${PE} should NOT upgrade a DENY decision to ASK_USER for Git commands in untrusted workspaces`,
    rules: [rule("run_shell_command", "deny", 1)],
    call: sh("git status"),
    trusted: false,
    expect: "deny",
  },
  {
    cite: `${PE} should upgrade Git commands to ALLOW in trusted workspace when heuristics apply`,
    rules: [rule("run_shell_command", "ask_user", 1)],
    call: sh("git status"),
    expect: "allow",
  },
  {
    cite: `${PE} should return ALLOW by default in YOLO mode when no rules match`,
    rules: [],
    call: { tool: "unknown_tool" },
    mode: "yolo",
    expect: "allow",
  },
  {
    cite: `${PE} should NOT override explicit DENY rules in YOLO mode`,
    rules: [rule("dangerous-tool", "deny", 10)],
    call: { tool: "dangerous-tool" },
    mode: "yolo",
    expect: "deny",
  },
  {
    cite: `${PE} should return ALLOW in YOLO mode for dangerous commands due to heuristics override`,
    rules: [rule("run_shell_command", "allow", 1)],
    call: sh("rm -rf /"),
    mode: "yolo",
    expect: "allow",
  },
  {
    cite: `${PE} should return ALLOW in YOLO mode even if shell command parsing fails`,
    rules: [rule("run_shell_command", "allow", 1)],
    call: sh("echo 'unterminated"),
    mode: "yolo",
    expect: "allow",
  },
  {
    cite: `${PE} should fail closed in YOLO mode when shell parsing fails for restricted rule`,
    rules: [prefixRule("echo", "allow", 1)],
    call: sh("echo 'unterminated"),
    mode: "yolo",
    expect: "deny",
  },
  {
    cite: `${PE} should return ASK_USER in non-YOLO mode if shell command parsing fails`,
    rules: [rule("run_shell_command", "allow", 1)],
    call: sh("echo 'unterminated"),
    expect: "ask_user",
  },
  {
    cite: `${PE} should handle non-interactive mode`,
    rules: [],
    call: { tool: "unknown_tool" },
    nonInteractive: true,
    expect: "deny",
  },
  {
    cite: `${PE} should match subagent name as alias for invoke_agent`,
    rules: [rule("codebase_investigator", "allow", 1)],
    call: { tool: "invoke_agent", input: { agent_name: "codebase_investigator" } },
    expect: "allow",
  },
  {
    cite: `${PE} should match any MCP tool when toolName is mcp_*`,
    rules: [rule("mcp_*", "allow", 1)],
    call: { tool: "mcp_server_tool" },
    expect: "allow",
  },
  {
    cite: `${PE} should match MCP server wildcard patterns`,
    rules: [rule("mcp_my-server_*", "allow", 1, { mcpName: "my-server" })],
    call: { tool: "mcp_my-server_tool" },
    expect: "allow",
  },
  {
    cite: `${PE} should NOT match spoofed server names when using wildcards`,
    rules: [rule("mcp_safe_server_*", "allow", 1, { mcpName: "safe_server" })],
    call: { tool: "mcp_mcp_safe_server_malicious_tool", server: "mcp_safe_server_malicious" },
    expect: "ask_user",
  },
  {
    cite: `${PE} should apply rules by priority`,
    rules: [rule("shell", "deny", 1), rule("shell", "allow", 10)],
    call: { tool: "shell" },
    expect: "allow",
  },
  {
    cite: `${PE} (yolo.toml) should return ASK_USER for ask_user tool even in YOLO mode`,
    rules: [],
    defaults: true,
    call: { tool: "ask_user" },
    mode: "yolo",
    expect: "ask_user",
  },
  {
    cite: `${PE} (plan.toml) should deny enter_plan_mode when already in PLAN mode`,
    rules: [],
    defaults: true,
    call: { tool: "enter_plan_mode" },
    mode: "plan",
    expect: "deny",
  },
  {
    cite: `${PE} (plan.toml) should allow activate_skill but deny shell commands in Plan Mode`,
    rules: [],
    defaults: true,
    call: sh("ls"),
    mode: "plan",
    expect: "deny",
  },
  {
    cite: "read-only.toml / write.toml: write_file asks by default",
    rules: [],
    defaults: true,
    call: { tool: "write_file", input: { file_path: "a.txt", content: "x" } },
    expect: "ask_user",
  },
  {
    cite: "write.toml: write_file allowed in autoEdit (priority 15)",
    rules: [],
    defaults: true,
    call: { tool: "write_file", input: { file_path: "a.txt", content: "x" } },
    mode: "autoEdit",
    expect: "allow",
  },
  {
    cite: "build file protection (policy-engine.ts): package.json still asks in autoEdit",
    rules: [],
    defaults: true,
    call: { tool: "write_file", input: { file_path: "package.json", content: "{}" } },
    mode: "autoEdit",
    expect: "ask_user",
  },
  {
    cite: "tool-names.ts TOOL_LEGACY_ALIASES: search_file_content matches grep_search rules",
    rules: [],
    defaults: true,
    call: { tool: "search_file_content", input: { pattern: "x" } },
    expect: "allow",
  },
];

describe("decisions transcribed from Gemini CLI's tests", () => {
  it.each(rows.map((r) => [r.cite, r] as const))("%s", (_cite, r) => {
    const rules = [...r.rules, ...(r.defaults ? builtinPolicyFiles().flatMap((b) => b.parsed.rules) : [])];
    const opts: EngineOptions = {
      rules,
      mode: r.mode ?? "default",
      nonInteractive: r.nonInteractive,
      trustedFolder: r.trusted ?? true,
      shell,
      host,
    };
    expect(decideGemini(r.call, opts).gemini).toBe(r.expect);
  });
});

describe("TOML loading transcribed from toml-loader.test.ts", () => {
  it("toml-loader.test.ts › should transform priority based on tier (tier + priority/1000)", () => {
    const f = parsePolicyFile({
      file: "/p/a.toml",
      content: '[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 100\n',
      tier: "user",
    });
    expect(f.rules[0].priority).toBeCloseTo(4.1);
    expect(f.rules[0].source).toBe("User: a.toml");
  });
  it("toml-loader.test.ts › should expand toolName arrays and commandPrefix arrays into one rule each", () => {
    const f = parsePolicyFile({
      file: "/p/a.toml",
      content:
        '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["git status", "git log"]\ndecision = "allow"\npriority = 10\n\n[[rule]]\ntoolName = ["glob", "read_file"]\ndecision = "deny"\npriority = 1\n',
      tier: "user",
    });
    expect(f.rules.map((r) => r.toolName)).toEqual(["run_shell_command", "run_shell_command", "glob", "read_file"]);
    expect(f.rules[0].argsPattern!.test('{"command":"git status --short"}')).toBe(true);
    expect(f.rules[0].argsPattern!.test('{"command":"git statusx"}')).toBe(false);
    expect(f.rules[2].origin).toMatchObject({ line: 7, ruleIndex: 1 });
  });
  it("toml-loader.test.ts › should combine mcpName and toolName into mcp_<server>_<tool>", () => {
    const f = parsePolicyFile({
      file: "/p/a.toml",
      content: '[[rule]]\nmcpName = "github"\ntoolName = "create_issue"\ndecision = "ask_user"\npriority = 5\n',
      tier: "user",
    });
    expect(f.rules[0]).toMatchObject({ toolName: "mcp_github_create_issue", mcpName: "github" });
  });
  it("toml-loader.test.ts › should reject priority >= 1000 (tier overflow) and drop the whole file", () => {
    const f = parsePolicyFile({
      file: "/p/a.toml",
      content:
        '[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 1000\n[[rule]]\ntoolName = "x"\ndecision = "deny"\npriority = 1\n',
      tier: "user",
    });
    expect(f.invalid).toBe(true);
    expect(f.rules).toEqual([]);
    expect(f.errors[0]).toMatchObject({ errorType: "schema_validation" });
  });
  it("toml-loader.test.ts › should report a TOML syntax error and load nothing from that file", () => {
    const f = parsePolicyFile({ file: "/p/a.toml", content: '[[rule]\ntoolName = "glob"', tier: "user" });
    expect(f).toMatchObject({ invalid: true, rules: [] });
    expect(f.errors[0].errorType).toBe("toml_parse");
  });
  it("toml-loader.test.ts › should drop a rule with an invalid or unsafe regex but keep the others", () => {
    const f = parsePolicyFile({
      file: "/p/a.toml",
      content:
        '[[rule]]\ntoolName = "glob"\nargsPattern = "(a+)+"\ndecision = "allow"\npriority = 1\n[[rule]]\ntoolName = "glob"\nargsPattern = "[x"\ndecision = "allow"\npriority = 1\n[[rule]]\ntoolName = "ls"\ndecision = "deny"\npriority = 1\n',
      tier: "user",
    });
    expect(f.invalid).toBe(false);
    expect(f.rules.map((r) => r.toolName)).toEqual(["ls"]);
    expect(f.errors.filter((e) => e.errorType === "regex_compilation")).toHaveLength(2);
  });
  it("toml-loader.test.ts › commandPrefix with a non-shell toolName is reported, and the rule still loads", () => {
    const f = parsePolicyFile({
      file: "/p/a.toml",
      content: '[[rule]]\ntoolName = "glob"\ncommandPrefix = "git"\ndecision = "allow"\npriority = 1\n',
      tier: "user",
    });
    expect(f.errors[0]).toMatchObject({ errorType: "rule_validation", line: 1 });
    expect(f.rules).toHaveLength(1);
  });
  it("@iarna/toml (TOML 0.5) rejects mixed-type arrays: the file is invalid for Gemini", () => {
    const f = parsePolicyFile({
      file: "/p/a.toml",
      content: '[[rule]]\ntoolName = ["glob", 1]\ndecision = "allow"\npriority = 1\n',
      tier: "user",
    });
    expect(f.invalid).toBe(true);
  });
  it("every built-in file parses without errors", () => {
    for (const b of builtinPolicyFiles())
      expect(
        b.parsed.errors.filter((e) => e.severity === "error"),
        b.name,
      ).toEqual([]);
  });
});

describe("helpers transcribed from utils.test.ts and stable-stringify.test.ts", () => {
  it("stable-stringify.test.ts › sorts keys and wraps top-level pairs in NUL separators", () => {
    expect(stableStringify({ b: 2, a: 1 })).toBe('{\0"a":1\0,\0"b":2\0}');
    expect(stableStringify({ a: { d: 1, c: [undefined, 2] } })).toBe('{\0"a":{"c":[null,2],"d":1}\0}');
    const circ: Record<string, unknown> = { a: 1 };
    circ.self = circ;
    expect(stableStringify(circ)).toBe('{\0"a":1\0,\0"self":"[Circular]"\0}');
  });
  it("utils.test.ts › escapeRegex escapes regex specials, quotes and spaces", () => {
    expect(escapeRegex('a.b "c" d')).toBe('a\\.b\\ \\"c\\"\\ d');
  });
  it("utils.test.ts › isSafeRegExp rejects nested quantifiers and over-long patterns", () => {
    expect(isSafeRegExp("(a+)+")).toBe(false);
    expect(isSafeRegExp("(.*)*")).toBe(false);
    expect(isSafeRegExp("a".repeat(2049))).toBe(false);
    expect(isSafeRegExp("git (status|log)")).toBe(true);
  });
  it("shell-utils.test.ts › stripShellWrapper unwraps bash -c and friends", () => {
    expect(stripShellWrapper('bash -c "ls -l"')).toBe("ls -l");
    expect(stripShellWrapper("/bin/sh -c 'git status'")).toBe("git status");
    expect(stripShellWrapper("ls -l")).toBe("ls -l");
  });
});
