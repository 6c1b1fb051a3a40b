import { parse as parseJsonc } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import {
  auditEventOf,
  beforeToolOutput,
  BeforeToolPayload,
  callOf,
  GeminiHookPayload,
  installHooks,
  isCockpitHandler,
  notificationPrompt,
  planBeforeTool,
  removeHooks,
} from "./hooks";

const OPTS = { url: "http://localhost:3000/", cliPath: "/opt/cockpit/bin/cockpit.mjs", waitSeconds: 30 };

// Shapes from Gemini's docs/hooks/reference.md and hooks/hookEventHandler.ts (createBaseInput + event fields).
const beforeTool = {
  session_id: "8f0c2a",
  transcript_path: "/home/u/.gemini/tmp/abc/chats/session.json",
  cwd: "/work/project",
  hook_event_name: "BeforeTool",
  timestamp: "2026-12-04T02:00:00.000Z",
  tool_name: "run_shell_command",
  tool_input: { command: "rm -rf build", description: "clean" },
};
const mcpBeforeTool = {
  ...beforeTool,
  tool_name: "mcp_github_create_issue",
  tool_input: { title: "x" },
  mcp_context: { server_name: "github", tool_name: "create_issue", command: "npx", args: ["-y", "gh-mcp"] },
};
const afterTool = {
  ...beforeTool,
  hook_event_name: "AfterTool",
  tool_response: { llmContent: "ok", returnDisplay: "ok", error: undefined },
};
const notification = {
  session_id: "8f0c2a",
  transcript_path: "",
  cwd: "/work/project",
  hook_event_name: "Notification",
  timestamp: "2026-12-04T02:00:01.000Z",
  notification_type: "ToolPermission",
  message: "Tool Shell requires execution",
  details: { type: "exec", title: "Shell", command: "rm -rf build", rootCommand: "rm" },
};

describe("settings.json hook install/remove keeps every other byte", () => {
  const existing = `{
    // my settings
    "general": { "vimMode": true },
    "hooks": {
        "BeforeTool": [
            { "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh" }] }
        ]
    }
}
`;
  it("installs one handler per event next to the user's hooks, and removal restores the file", () => {
    const out = installHooks(existing, OPTS);
    expect(out).toContain("// my settings");
    expect(out).toContain('"command": "./lint.sh"');
    const value = parseJsonc(out) as {
      hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
    };
    expect(Object.keys(value.hooks).sort()).toEqual(["AfterTool", "BeforeAgent", "BeforeTool", "Notification"]);
    expect(value.hooks.BeforeTool).toHaveLength(2);
    expect(value.hooks.BeforeTool[1].hooks[0].command).toBe(
      'COCKPIT_URL=http://localhost:3000 COCKPIT_HOOK_WAIT=30 node "/opt/cockpit/bin/cockpit.mjs" hook gemini',
    );
    expect(value.hooks.BeforeTool[1].hooks[0].timeout).toBe(45_000);
    expect(value.hooks.Notification[0].matcher).toBe("ToolPermission");
    // Installing twice replaces, never duplicates.
    expect(installHooks(out, OPTS)).toBe(out);
    const removed = removeHooks(out);
    expect(removed.removed).toBe(4);
    expect(removed.text).toBe(existing);
    // The user's own hook group is byte-identical inside the installed file too.
    expect(out).toContain('{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh" }] }');
    expect(parseJsonc(removed.text)).toEqual(parseJsonc(existing));
    expect(removed.text).toContain("// my settings");
  });
  it("a file without hooks gets them and gets its bytes back on disconnect", () => {
    const plain = '{\n  "general": { "vimMode": true }\n}\n';
    const out = installHooks(plain, OPTS);
    expect(out).toContain('"general": { "vimMode": true }');
    expect(removeHooks(out).text).toBe(plain);
  });
  it("a handler of ours inside the user's own group is removed alone; CRLF files stay CRLF", () => {
    const mixed =
      '{\r\n  "hooks": {\r\n    "AfterTool": [\r\n      { "hooks": [{ "type": "command", "command": "./log.sh" }, { "type": "command", "command": "node \\"/x/cockpit.mjs\\" hook gemini AfterTool" }] }\r\n    ]\r\n  }\r\n}\r\n';
    const r = removeHooks(mixed);
    expect(r.removed).toBe(1);
    expect(r.text).toBe(
      '{\r\n  "hooks": {\r\n    "AfterTool": [\r\n      { "hooks": [{ "type": "command", "command": "./log.sh" }] }\r\n    ]\r\n  }\r\n}\r\n',
    );
    const installed = installHooks(r.text, OPTS);
    expect(installed.includes("\r\n") && !/[^\r]\n/.test(installed)).toBe(true);
    expect(removeHooks(installed).text).toBe(r.text);
  });
  it("refuses a hooks value of the wrong shape instead of overwriting it", () => {
    expect(() => installHooks('{ "hooks": [] }', OPTS)).toThrow(/not an object/);
    expect(() => installHooks('{ "hooks": { "BeforeTool": {} } }', OPTS)).toThrow(/not a list/);
  });
  it("an empty or missing file gets a fresh object; a broken file is refused", () => {
    expect(JSON.parse(installHooks("", OPTS)).hooks.BeforeTool).toHaveLength(1);
    expect(() => installHooks("{ nope", OPTS)).toThrow(/never overwritten/);
  });
  it("recognises only its own handlers", () => {
    expect(isCockpitHandler({ type: "command", command: 'node "/x/cockpit.mjs" hook gemini BeforeTool' })).toBe(true);
    expect(isCockpitHandler({ type: "command", command: "./lint.sh" })).toBe(false);
  });
});

describe("Gemini hook payloads → cockpit calls, cards and audit events", () => {
  it("parses every event Gemini sends", () => {
    for (const p of [
      beforeTool,
      mcpBeforeTool,
      afterTool,
      notification,
      { ...beforeTool, hook_event_name: "BeforeAgent", prompt: "fix it" },
    ]) {
      expect(GeminiHookPayload.safeParse(p).success, p.hook_event_name).toBe(true);
    }
    expect(GeminiHookPayload.safeParse({ ...beforeTool, tool_name: "" }).success).toBe(false);
  });
  it("maps an MCP call's server from mcp_context", () => {
    expect(callOf(BeforeToolPayload.parse(mcpBeforeTool))).toEqual({
      tool: "mcp_github_create_issue",
      input: { title: "x" },
      server: "github",
    });
  });
  it("a call Gemini will prompt for becomes a deny-only card", () => {
    const plan = planBeforeTool(BeforeToolPayload.parse(beforeTool), { decision: "ask", reason: "dangerous command" });
    expect(plan.kind).toBe("card");
    if (plan.kind === "card") {
      expect(plan.card).toMatchObject({
        agent: "gemini",
        sessionId: "8f0c2a",
        tool: "run_shell_command",
        capability: "deny-only",
      });
      expect(plan.card.note).toMatch(/approve in Gemini's terminal/);
    }
  });
  it("Gemini's own allow and deny pass through; the cockpit's deny blocks; the cockpit's ask forces Gemini's prompt", () => {
    const p = BeforeToolPayload.parse(beforeTool);
    expect(planBeforeTool(p, { decision: "allow", reason: "" })).toEqual({ kind: "pass", audit: "allowed by Gemini" });
    expect(planBeforeTool(p, { decision: "deny", reason: "" })).toEqual({ kind: "pass", audit: "denied by Gemini" });
    expect(planBeforeTool(p, { decision: "allow", reason: "" }, { decision: "deny", reason: "team rule" })).toEqual({
      kind: "deny",
      reason: "team rule",
    });
    expect(planBeforeTool(p, { decision: "allow", reason: "" }, { decision: "ask", reason: "needs review" })).toEqual({
      kind: "force-ask",
      reason: "needs review",
    });
  });
  it("hook outputs: a remote deny blocks with the person's reason; nothing else ever says allow", () => {
    expect(beforeToolOutput({ kind: "denied", by: "ana", message: "not on prod" })).toEqual({
      decision: "deny",
      reason: "Denied from Permissions Cockpit by ana: not on prod",
    });
    expect(beforeToolOutput({ kind: "force-ask", reason: "needs review" })).toEqual({
      decision: "ask",
      systemMessage: "Permissions Cockpit: needs review",
    });
    expect(beforeToolOutput({ kind: "pass" })).toEqual({});
    expect(JSON.stringify(beforeToolOutput({ kind: "pass", note: "approve in the terminal" }))).not.toContain('allow"');
  });
  it("Before/AfterTool become audit events; ToolPermission notifications mark the terminal prompt", () => {
    expect(auditEventOf(BeforeToolPayload.parse(beforeTool), "ask")).toMatchObject({
      kind: "pre_tool_use",
      sessionId: "8f0c2a",
      tool: "run_shell_command",
      outcome: "ask",
      at: "2026-12-04T02:00:00.000Z",
    });
    const after = GeminiHookPayload.parse({
      ...afterTool,
      tool_response: { llmContent: "", returnDisplay: "", error: { message: "boom" } },
    });
    if (after.hook_event_name !== "AfterTool") throw new Error("expected AfterTool");
    expect(auditEventOf(after)).toMatchObject({ kind: "post_tool_use", reason: 'tool error: {"message":"boom"}' });
    const n = GeminiHookPayload.parse(notification);
    if (n.hook_event_name !== "Notification") throw new Error("expected Notification");
    expect(notificationPrompt(n)).toMatchObject({ sessionId: "8f0c2a", details: { rootCommand: "rm" } });
    expect(notificationPrompt({ ...n, notification_type: "Other" })).toBeNull();
  });
});
