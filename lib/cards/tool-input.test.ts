import { describe, expect, it } from "vitest";
import { validateToolCall } from "./tool-input";

describe("validateToolCall: known tools need their fields, names follow the agent's grammar", () => {
  const ok: [string, Record<string, unknown>][] = [
    ["Bash", { command: "ls", description: "list", extra: 1 }],
    ["shell_command", { command: "git status" }],
    ["Edit", { file_path: "/w/a.ts", old_string: "a", new_string: "b" }],
    ["Read", { path: "/w/a.ts" }],
    ["read_file", { file_path: "a.ts" }],
    ["NotebookEdit", { notebook_path: "/w/n.ipynb" }],
    ["WebFetch", { url: "https://example.com", prompt: "x" }],
    ["Eval", { expression: "(+ 1 2)" }],
    ["mcp__github__create_issue", { title: "t" }],
    ["mcp__my-server__do.thing", {}],
    ["TodoWrite", {}],
  ];
  it.each(ok)("accepts %s", (tool, input) => expect(() => validateToolCall(tool, input)).not.toThrow());

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ["Bash", { cmd: "rm -rf ~" }, /input of Bash: command/],
    ["Bash", { command: 42 }, /command must be a string/],
    ["Bash", { command: "  " }, /command is empty/],
    ["shell_command", {}, /command/],
    ["Write", { content: "x" }, /needs a file path/],
    ["Edit", { file_path: ["a"] }, /file_path must be a non-empty string/],
    ["WebFetch", { prompt: "x" }, /url/],
    ["Bash(rm)", { command: "ls" }, /not a tool name/],
    ["Bash\u202e", { command: "ls" }, /not a tool name/],
    ["1tool", {}, /not a tool name/],
  ];
  it.each(bad)("refuses %s %j", (tool, input, reason) => {
    expect(() => validateToolCall(tool, input)).toThrow(reason);
    try {
      validateToolCall(tool, input);
    } catch (e) {
      expect((e as { status: number }).status).toBe(400);
    }
  });
});
