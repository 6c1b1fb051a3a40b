import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { addHooks, commandCodeHandler, editCommandCodeSettings, removeHooks } from "./connect";

const handler = commandCodeHandler({ url: "http://localhost:3000/", cliPath: "/opt/cockpit/bin/cockpit.mjs" });
const root = mkdtempSync(path.join(os.tmpdir(), "connect-cmd-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The user's own guard, in the shape of Command Code's hooks reference (`/docs/hooks/reference`).
const original = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "shell|write",
        "hooks": [{ "type": "command", "command": "./.commandcode/hooks/guard-tools.sh", "timeout": 10 }]
      }
    ]
  },
  // comments survive
  "model": "x"
}
`;

describe("connect commandcode", () => {
  it("adds PreToolUse (600 s) and PostToolUse (10 s) handlers for every tool, keeps the rest, is idempotent", () => {
    const added = addHooks(original, handler);
    expect(added.changed).toBe(true);
    expect(added.text).toContain("// comments survive");
    const parsed = JSON.parse(added.text.replace(/^\s*\/\/.*$/m, ""));
    expect(parsed.model).toBe("x");
    expect(parsed.hooks.PreToolUse[0].hooks[0].command).toBe("./.commandcode/hooks/guard-tools.sh");
    expect(parsed.hooks.PreToolUse[1]).toEqual({
      hooks: [
        {
          type: "command",
          command: 'COCKPIT_URL=http://localhost:3000 node "/opt/cockpit/bin/cockpit.mjs" hook commandcode',
          timeout: 600,
        },
      ],
    });
    expect(parsed.hooks.PostToolUse).toEqual([{ hooks: [{ ...handler, timeout: 10 }] }]);
    expect(addHooks(added.text, handler)).toEqual({ text: added.text, changed: false });
    expect(removeHooks(added.text)).toEqual({ text: original, changed: true });
    expect(removeHooks(original)).toEqual({ text: original, changed: false });
  });

  it("writes a new settings file and removes it back to an empty object", async () => {
    const ws = path.join(root, "fresh");
    mkdirSync(ws);
    const first = await editCommandCodeSettings(ws, (t) => addHooks(t, handler));
    expect(first.file).toBe(path.join(ws, ".commandcode/settings.json"));
    const text = readFileSync(first.file, "utf8");
    expect(Object.keys(JSON.parse(text).hooks)).toEqual(["PreToolUse", "PostToolUse"]);
    await editCommandCodeSettings(ws, (t) => removeHooks(t));
    expect(JSON.parse(readFileSync(first.file, "utf8"))).toEqual({});
  });

  it("never overwrites a broken file and refuses a symlinked one", async () => {
    const ws = path.join(root, "broken");
    mkdirSync(path.join(ws, ".commandcode"), { recursive: true });
    writeFileSync(path.join(ws, ".commandcode/settings.json"), "{ not json");
    await expect(editCommandCodeSettings(ws, (t) => addHooks(t, handler))).rejects.toThrow(/not a JSON object/);
    expect(readFileSync(path.join(ws, ".commandcode/settings.json"), "utf8")).toBe("{ not json");
    const linked = path.join(root, "linked");
    mkdirSync(path.join(linked, ".commandcode"), { recursive: true });
    writeFileSync(path.join(root, "elsewhere.json"), "{}");
    symlinkSync(path.join(root, "elsewhere.json"), path.join(linked, ".commandcode/settings.json"));
    await expect(editCommandCodeSettings(linked, (t) => addHooks(t, handler))).rejects.toThrow();
    expect(readFileSync(path.join(root, "elsewhere.json"), "utf8")).toBe("{}");
  });
});
