import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { addHooks, cockpitHandler, editClaudeSettings, removeHooks } from "./connect";
import { connector } from "./connector";

const command = cockpitHandler({ url: "http://localhost:3000", http: false, cliPath: "/opt/cockpit/bin/cockpit.mjs" });
const http = cockpitHandler({ url: "http://localhost:3000/", http: true, cliPath: "" });
const root = mkdtempSync(path.join(os.tmpdir(), "connect-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("connect claude-code", () => {
  const original =
    '{\n\t"permissions": {\n\t\t"allow": ["Bash(npm test)"]\n\t},\n\t"hooks": {\n\t\t"PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./mine.sh" }] }]\n\t}\n}\n';

  it("adds both hooks, keeps other content, is idempotent, and disconnect restores the file byte for byte", () => {
    const added = addHooks(original, command);
    expect(added.changed).toBe(true);
    const parsed = JSON.parse(added.text);
    expect(parsed.permissions).toEqual({ allow: ["Bash(npm test)"] });
    // The user's own PreToolUse group stays first; the cockpit's audit hooks (short timeout) follow.
    expect(parsed.hooks.PreToolUse).toHaveLength(2);
    expect(parsed.hooks.PreToolUse[0].hooks[0].command).toBe("./mine.sh");
    expect(parsed.hooks.PreToolUse[1]).toEqual({ matcher: "*", hooks: [{ ...command, timeout: 10 }] });
    expect(parsed.hooks.PostToolUse).toEqual([{ matcher: "*", hooks: [{ ...command, timeout: 10 }] }]);
    expect(parsed.hooks.PermissionRequest).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "command",
            command: 'COCKPIT_URL=http://localhost:3000 node "/opt/cockpit/bin/cockpit.mjs" hook claude-code',
            timeout: 600,
          },
        ],
      },
    ]);
    expect(parsed.hooks.UserPromptSubmit).toEqual([{ hooks: [command] }]);
    expect(addHooks(added.text, command)).toEqual({ text: added.text, changed: false });
    expect(removeHooks(added.text)).toEqual({ text: original, changed: true });
    for (const other of [
      '{\n  "permissions": {\n    "allow": []\n  }\n}\n',
      '{\r\n    "model": "opus",\r\n    "hooks": {\r\n        "PermissionRequest": [{ "hooks": [{ "type": "command", "command": "mine" }] }]\r\n    }\r\n}',
    ]) {
      const withHooks = addHooks(other, command).text;
      expect(JSON.parse(withHooks).hooks.PermissionRequest.at(-1).hooks[0]).toEqual(command);
      expect(removeHooks(withHooks).text).toBe(other);
    }
  });

  it("writes the HTTP form with the bearer header from the environment", () => {
    const parsed = JSON.parse(addHooks("", http).text);
    expect(parsed.hooks.PermissionRequest[0].hooks[0]).toEqual({
      type: "http",
      url: "http://localhost:3000/api/agent/v1/hooks/claude-code",
      timeout: 600,
      headers: { Authorization: "Bearer $COCKPIT_TOKEN" },
      allowedEnvVars: ["COCKPIT_TOKEN"],
    });
    expect(JSON.parse(removeHooks(addHooks("", http).text).text)).toEqual({});
  });

  it("--audit-http: HTTP hooks for PreToolUse and PostToolUse, the command hook for the rest", async () => {
    const ws = path.join(root, "audit-http");
    mkdirSync(ws, { recursive: true });
    const target = { workspace: ws, home: root, url: "http://localhost:3000", cliPath: "/opt/cockpit/bin/cockpit.mjs" };
    const result = await connector.connect({ ...target, auditHttp: true });
    expect(result.changed).toBe(true);
    const text = readFileSync(path.join(ws, ".claude/settings.local.json"), "utf8");
    const parsed = JSON.parse(text);
    expect(parsed.hooks.PreToolUse).toEqual([{ matcher: "*", hooks: [{ ...http, timeout: 10 }] }]);
    expect(parsed.hooks.PostToolUse).toEqual([{ matcher: "*", hooks: [{ ...http, timeout: 10 }] }]);
    expect(parsed.hooks.PermissionRequest).toEqual([{ matcher: "*", hooks: [command] }]);
    expect(parsed.hooks.UserPromptSubmit).toEqual([{ hooks: [command] }]);
    // Either kind counts as connected: connecting again (any form) changes nothing; disconnect removes both kinds.
    expect((await connector.connect(target)).changed).toBe(false);
    expect((await connector.disconnect(target)).changed).toBe(true);
    expect(JSON.parse(readFileSync(path.join(ws, ".claude/settings.local.json"), "utf8"))).toEqual({});
  });

  it("edits the file atomically and refuses a symlinked settings file", async () => {
    const ws = path.join(root, "ws");
    mkdirSync(path.join(ws, ".claude"), { recursive: true });
    writeFileSync(path.join(ws, ".claude/settings.local.json"), original);
    expect((await editClaudeSettings(ws, (t) => addHooks(t, command))).changed).toBe(true);
    expect((await editClaudeSettings(ws, (t) => addHooks(t, command))).changed).toBe(false);
    await editClaudeSettings(ws, removeHooks);
    expect(readFileSync(path.join(ws, ".claude/settings.local.json"), "utf8")).toBe(original);
    const linked = path.join(root, "linked");
    mkdirSync(path.join(linked, ".claude"), { recursive: true });
    writeFileSync(path.join(root, "elsewhere.json"), "{}");
    symlinkSync(path.join(root, "elsewhere.json"), path.join(linked, ".claude/settings.local.json"));
    await expect(editClaudeSettings(linked, (t) => addHooks(t, command))).rejects.toThrow(/symlink/);
  });
});
