/**
 * The Codex hooks connector core, against the outputs of openai/codex
 * `codex-rs/hooks/schema/generated/*.command.{input,output}.schema.json` (fields, required keys, enums) and the
 * handler file format of `codex-rs/hooks/src/engine/config.rs`.
 */
import { describe, expect, it } from "vitest";
import {
  codexHookCommand,
  codexHookOutput,
  CODEX_HOOK_EVENTS,
  HooksFileRefused,
  installCodexHooks,
  isCockpitCodexHandler,
  removeCodexHooks,
} from "./hooks";

const COMMAND = codexHookCommand({ url: "http://localhost:3000/", cliPath: "/opt/cockpit/bin/cockpit.mjs" });

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
  it("leaves a compact, one-line group of the user's exactly as written", () => {
    const compact = `{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n`;
    const { text } = installCodexHooks(compact, COMMAND);
    expect(text).toContain(`    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }],\n`);
    expect(removeCodexHooks(text).text).toBe(compact);
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
