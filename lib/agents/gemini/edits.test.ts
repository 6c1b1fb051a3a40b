import { beforeAll, describe, expect, it } from "vitest";
import { loadGeminiShell } from "./io/shell-wasm";
import { applyRemembered, rememberRule } from "./remember";
import type { GeminiShell } from "./shell";
import { addRule, editRule, revokeRule, TomlEditError } from "./toml-edit";
import { parsePolicyFile } from "./toml-policy";

let shell: GeminiShell;
beforeAll(async () => {
  shell = await loadGeminiShell();
});

const FILE = `# My Gemini rules — keep this header
# (comments must survive every cockpit edit)

[[rule]]
# allow git reads
toolName = "run_shell_command"
commandPrefix = "git"   # too broad
decision = "allow"
priority = 100

[[rule]]
toolName = "write_file"
decision = "ask_user"
priority = 10

# trailing note
`;

describe("in-place TOML edits keep comments and every other byte", () => {
  it("revoke deletes exactly one [[rule]] table", () => {
    const out = revokeRule(FILE, 0);
    expect(out).toContain("# My Gemini rules — keep this header");
    expect(out).toContain("# trailing note");
    expect(out).not.toContain("commandPrefix");
    expect(out).toContain('toolName = "write_file"');
    const f = parsePolicyFile({ file: "x.toml", content: out, tier: "user" });
    expect(f.rules.map((r) => r.toolName)).toEqual(["write_file"]);
    // Everything after the removed table is byte-identical.
    expect(out.endsWith(FILE.slice(FILE.indexOf('[[rule]]\ntoolName = "write_file"')))).toBe(true);
  });

  it("narrow replaces one value in place and keeps its trailing comment", () => {
    const out = editRule(FILE, 0, { commandPrefix: ["git status", "git log"] });
    expect(out).toContain('commandPrefix = ["git status", "git log"]   # too broad');
    expect(out.replace('["git status", "git log"]', '"git"')).toBe(FILE);
    const f = parsePolicyFile({ file: "x.toml", content: out, tier: "user" });
    expect(f.rules.filter((r) => r.toolName === "run_shell_command")).toHaveLength(2);
  });

  it("narrow adds a missing key after the table's last key and removes a key line", () => {
    const added = editRule(FILE, 1, { modes: ["autoEdit", "yolo"] });
    expect(added).toContain('priority = 10\nmodes = ["autoEdit", "yolo"]\n');
    const removed = editRule(added, 1, { modes: undefined });
    expect(removed).toBe(FILE);
  });

  it("add appends a table; round trip add → revoke gives the file back", () => {
    const out = addRule(FILE, { toolName: "glob", decision: "allow", priority: 50 });
    expect(out.startsWith(FILE)).toBe(true);
    expect(out.endsWith('[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 50\n')).toBe(true);
    expect(revokeRule(out, 2).trimEnd()).toBe(FILE.trimEnd());
  });

  it("refuses an edit that would make the file invalid for Gemini, and a broken file", () => {
    expect(() => editRule(FILE, 0, { priority: 1000 })).toThrow(TomlEditError);
    expect(() => revokeRule("[[rule]\n", 0)).toThrow(/not valid TOML/);
    expect(() => revokeRule(FILE, 5)).toThrow(/no \[\[rule\]\] #6/);
  });

  it("keeps CRLF line endings", () => {
    const crlf = FILE.replace(/\n/g, "\r\n");
    const out = editRule(crlf, 1, { interactive: true });
    expect(out).toContain("priority = 10\r\ninteractive = true\r\n");
    expect(out.replace(/\r\n/g, "\n").replace("interactive = true\n", "")).toBe(FILE);
  });
});

describe("always allow for all future sessions writes what Gemini writes", () => {
  it("shell: the command's root commands as commandPrefix, modes from the current one up, priority 950", () => {
    const r = rememberRule(
      { tool: "run_shell_command", input: { command: "git status && npm test" } },
      { mode: "default", shell },
    );
    expect("rule" in r && r.rule).toEqual({
      toolName: "run_shell_command",
      commandPrefix: ["git", "npm"],
      decision: "allow",
      priority: 950,
      modes: ["default", "autoEdit", "yolo"],
    });
  });
  it("shell: a redirection adds allowRedirection = true; bash -c is unwrapped first", () => {
    const r = rememberRule(
      { tool: "run_shell_command", input: { command: 'bash -c "ls > out.txt"' } },
      { mode: "autoEdit", shell },
    );
    expect("rule" in r && r.rule).toMatchObject({
      commandPrefix: ["ls"],
      allowRedirection: true,
      modes: ["autoEdit", "yolo"],
    });
  });
  it("edit tools: argsPattern on the exact file_path between NUL separators", () => {
    const r = rememberRule(
      { tool: "write_file", input: { file_path: "src/a.ts", content: "x" } },
      { mode: "default", shell },
    );
    expect("rule" in r && r.rule.argsPattern).toBe('\\\\0\\"file_path\\":\\"src/a\\.ts\\"\\\\0');
  });
  it("MCP: the server's tool name with mcpName", () => {
    const r = rememberRule({ tool: "mcp_github_create_issue", input: {} }, { mode: "plan", shell });
    expect("rule" in r && r.rule).toMatchObject({
      toolName: "create_issue",
      mcpName: "github",
      modes: ["plan", "default", "autoEdit", "yolo"],
    });
  });
  it("a tool that must be narrowed but has nothing to narrow by is not remembered", () => {
    expect(rememberRule({ tool: "read_file", input: {} }, { mode: "default", shell })).toHaveProperty("error");
  });
  it("applying to auto-saved.toml appends, then updates the same rule in place, keeping comments", () => {
    const remembered = rememberRule(
      { tool: "run_shell_command", input: { command: "npm test" } },
      { mode: "autoEdit", shell },
    );
    if (!("rule" in remembered)) throw new Error("expected a rule");
    const start = "# mine\n";
    const first = applyRemembered(start, remembered);
    expect(first.updated).toBe(false);
    expect(first.text).toBe(
      '# mine\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["npm"]\ndecision = "allow"\npriority = 950\nmodes = ["autoEdit", "yolo"]\n',
    );
    const again = rememberRule(
      { tool: "run_shell_command", input: { command: "npm run build" } },
      { mode: "default", shell },
    );
    if (!("rule" in again)) throw new Error("expected a rule");
    const second = applyRemembered(first.text, again);
    expect(second.updated).toBe(true);
    expect(second.text).toContain('modes = ["default", "autoEdit", "yolo"]');
    expect(second.text.startsWith("# mine\n")).toBe(true);
    const f = parsePolicyFile({ file: "auto-saved.toml", content: second.text, tier: "user" });
    expect(f.rules).toHaveLength(1);
    expect(f.rules[0].priority).toBeCloseTo(4.95);
  });
  it("a broken auto-saved.toml is refused, never overwritten", () => {
    const remembered = rememberRule({ tool: "glob", input: { pattern: "*.ts" } }, { mode: "default", shell });
    if (!("rule" in remembered)) throw new Error("expected a rule");
    expect(() => applyRemembered("[[rule\n", remembered)).toThrow(/not valid TOML/);
  });
});
