/**
 * The Codex hooks connector core, against the payloads and outputs of openai/codex
 * `codex-rs/hooks/schema/generated/*.command.{input,output}.schema.json` (fields, required keys, enums) and the
 * handler file format of `codex-rs/hooks/src/engine/config.rs`.
 */
import { describe, expect, it } from "vitest";
import {
  autoAnswer,
  codexHookCommand,
  codexHookEvent,
  codexHookOutput,
  CODEX_HOOK_EVENTS,
  HooksFileRefused,
  installCodexHooks,
  isCockpitCodexHandler,
  removeCodexHooks,
} from "./hooks";

const COMMAND = codexHookCommand({ url: "http://localhost:3000/", cliPath: "/opt/cockpit/bin/cockpit.mjs" });

const common = {
  session_id: "0199a3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b",
  turn_id: "turn-3",
  transcript_path: null,
  cwd: "/home/u/work",
  model: "gpt-5-codex",
  permission_mode: "default",
};

describe("payloads (permission-request / pre-tool-use / post-tool-use / user-prompt-submit .command.input)", () => {
  it("PermissionRequest becomes a card with Codex's argv", () => {
    const e = codexHookEvent({
      ...common,
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: { command: "bash -lc 'npm test && rm -rf dist'", description: "run the tests" },
    });
    expect(e).toEqual({
      kind: "permission-request",
      sessionId: common.session_id,
      turnId: "turn-3",
      cwd: "/home/u/work",
      model: "gpt-5-codex",
      toolName: "Bash",
      call: {
        tool: "shell",
        input: { command: ["bash", "-lc", "npm test && rm -rf dist"], justification: "run the tests" },
      },
      display: "bash -lc 'npm test && rm -rf dist'",
      description: "run the tests",
    });
  });
  it("apply_patch permission requests carry the patch", () => {
    const e = codexHookEvent({
      ...common,
      hook_event_name: "PermissionRequest",
      tool_name: "apply_patch",
      tool_input: { command: "*** Begin Patch\n*** End Patch" },
    });
    expect(e).toMatchObject({
      kind: "permission-request",
      call: { tool: "apply_patch", input: { patch: "*** Begin Patch\n*** End Patch" } },
    });
  });
  it("Pre/PostToolUse feed the audit log", () => {
    expect(
      codexHookEvent({
        ...common,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_use_id: "call_1",
        tool_input: { command: "ls -la" },
      }),
    ).toMatchObject({
      kind: "tool-use",
      phase: "pre",
      toolUseId: "call_1",
      call: { tool: "shell", input: { command: ["ls", "-la"] } },
    });
    expect(
      codexHookEvent({
        ...common,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_use_id: "call_1",
        tool_input: { command: "ls" },
        tool_response: { exit_code: 0 },
      }),
    ).toMatchObject({ kind: "tool-use", phase: "post", response: { exit_code: 0 } });
  });
  it("UserPromptSubmit ends an absence hold; the prompt text is not kept", () => {
    expect(codexHookEvent({ ...common, hook_event_name: "UserPromptSubmit", prompt: "fix the build" })).toEqual({
      kind: "user-prompt",
      sessionId: common.session_id,
      turnId: "turn-3",
      cwd: "/home/u/work",
      promptChars: 13,
    });
  });
  it("refuses payloads that break the schema", () => {
    const { turn_id: _t, ...noTurn } = common;
    expect(() => codexHookEvent({ ...noTurn, hook_event_name: "UserPromptSubmit", prompt: "x" })).toThrow();
    expect(() =>
      codexHookEvent({ ...common, hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: {} }),
    ).toThrow();
    expect(() =>
      codexHookEvent({ ...common, permission_mode: "yolo", hook_event_name: "UserPromptSubmit", prompt: "x" }),
    ).toThrow();
    expect(() => codexHookEvent({ ...common, hook_event_name: "Stop" })).toThrow();
  });
});

describe("outputs (permission-request.command.output)", () => {
  const allowedTop = new Set(["continue", "hookSpecificOutput", "stopReason", "suppressOutput", "systemMessage"]);
  const conforms = (o: NonNullable<ReturnType<typeof codexHookOutput>>) => {
    expect(Object.keys(o).every((k) => allowedTop.has(k))).toBe(true);
    expect(Object.keys(o.hookSpecificOutput).sort()).toEqual(["decision", "hookEventName"]);
    expect(["allow", "deny"]).toContain(o.hookSpecificOutput.decision.behavior);
  };
  it("allow", () => {
    const o = codexHookOutput({ answer: "allow" })!;
    conforms(o);
    expect(o).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
  });
  it("deny always carries a non-empty message", () => {
    const o = codexHookOutput({ answer: "deny", by: "ana@example.com" })!;
    conforms(o);
    expect(o.hookSpecificOutput.decision).toEqual({
      behavior: "deny",
      message: "Denied in the permissions cockpit by ana@example.com.",
    });
    expect(codexHookOutput({ answer: "deny", message: "  not on main " })!.hookSpecificOutput.decision).toEqual({
      behavior: "deny",
      message: "not on main",
    });
  });
  it("no answer prints nothing, so Codex's own prompt decides", () => {
    expect(codexHookOutput({ answer: "none" })).toBeUndefined();
  });
});

describe("the floor rule", () => {
  it("a PermissionRequest is never approved from rules, only denied", () => {
    expect(autoAnswer({ decision: "allow" })).toEqual({ answer: "card" });
    expect(autoAnswer({ decision: "ask" })).toEqual({ answer: "card" });
    expect(autoAnswer({ decision: "deny", reason: "`rm -rf /` rejected: destructive" })).toEqual({
      answer: "deny",
      message: "`rm -rf /` rejected: destructive",
    });
  });
});

const USER_HOOKS = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "~/bin/lint-commands.sh", "timeout": 5 }
        ]
      }
    ]
  }
}
`;

describe("hooks.json install / remove", () => {
  it("installs the cockpit's four handlers into an empty file", () => {
    const { text, changed } = installCodexHooks("", COMMAND);
    expect(changed).toBe(true);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed.hooks)).toEqual([...CODEX_HOOK_EVENTS]);
    expect(parsed.hooks.PermissionRequest).toEqual([
      {
        matcher: "*",
        hooks: [
          { type: "command", command: COMMAND, timeout: 600, statusMessage: "Waiting for the permissions cockpit" },
        ],
      },
    ]);
    expect(parsed.hooks.UserPromptSubmit[0].matcher).toBeUndefined();
    expect(parsed.hooks.PostToolUse[0].hooks[0].timeout).toBe(10);
  });
  it("keeps the user's own hooks byte for byte, and is idempotent", () => {
    const { text } = installCodexHooks(USER_HOOKS, COMMAND);
    expect(text).toContain('{ "type": "command", "command": "~/bin/lint-commands.sh", "timeout": 5 }');
    expect(JSON.parse(text).hooks.PreToolUse).toHaveLength(2);
    expect(installCodexHooks(text, COMMAND)).toEqual({ text, changed: false });
    const removed = removeCodexHooks(text);
    expect(removed.changed).toBe(true);
    expect(removed.text).toBe(USER_HOOKS);
  });
  it("removes everything it added from a file that had nothing else", () => {
    const { text } = installCodexHooks("{}\n", COMMAND);
    expect(removeCodexHooks(text).text.replace(/\s/g, "")).toBe("{}");
  });
  it("recognises only its own handlers", () => {
    expect(isCockpitCodexHandler({ type: "command", command: COMMAND })).toBe(true);
    expect(isCockpitCodexHandler({ type: "command", command: "node x hook claude-code" })).toBe(false);
    expect(isCockpitCodexHandler({ type: "command", command: "echo hook codex" })).toBe(false);
  });
  it("refuses a file Codex cannot read (comments, trailing commas) instead of rewriting it", () => {
    expect(() => installCodexHooks('{ // mine\n "hooks": {} }', COMMAND)).toThrow(HooksFileRefused);
    expect(() => installCodexHooks('{ "hooks": { "PreToolUse": {} } }', COMMAND)).toThrow(/not a list/);
    expect(() => removeCodexHooks('{ "hooks": [] ,}')).toThrow(HooksFileRefused);
  });
});
