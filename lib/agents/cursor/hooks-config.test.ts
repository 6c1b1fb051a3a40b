import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "jsonc-parser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import {
  HOOK_EVENT_NAMES,
  hookCommand,
  installedEvents,
  installHooks,
  isCockpitHandler,
  removeHooks,
} from "./hooks-config";
import { editHooksFile } from "./io/write";

const CMD = { cliPath: "/opt/cockpit/bin/cockpit.mjs", url: "http://localhost:3000/" };
const F = "/w/.cursor/hooks.json";

// The documented example file (https://cursor.com/docs/hooks, "Examples"), with a user's comments added.
const DOC_EXAMPLE = `{
  "version": 1,
  "hooks": {
    // our audit trail
    "beforeShellExecution": [
      {
        "command": "./hooks/audit.sh"
      },
      {
        "command": "./hooks/block-git.sh" // keep git out
      }
    ],
    "afterFileEdit": [{ "command": "./hooks/format.sh" }],
    "stop": [
      {
        "command": "./hooks/audit.sh"
      }
    ]
  }
}
`;

describe("installHooks / removeHooks keep every byte they do not own", () => {
  it("install adds one handler per event, after the user's own", () => {
    const { text, changed } = installHooks(DOC_EXAMPLE, CMD, F);
    expect(changed).toBe(true);
    const v = parse(text) as {
      version: number;
      hooks: Record<string, { command: string; failClosed?: boolean; timeout?: number }[]>;
    };
    expect(v.version).toBe(1);
    expect(v.hooks.beforeShellExecution.map((h) => h.command)).toEqual([
      "./hooks/audit.sh",
      "./hooks/block-git.sh",
      hookCommand(CMD),
    ]);
    expect(v.hooks.beforeShellExecution[2]).toMatchObject({ failClosed: true, timeout: 600 });
    expect(v.hooks.afterFileEdit.map((h) => h.command)).toEqual(["./hooks/format.sh", hookCommand(CMD)]);
    expect(v.hooks.beforeReadFile).toEqual([expect.objectContaining({ failClosed: true })]);
    expect(v.hooks.stop).toHaveLength(1);
    expect(text).toContain("// our audit trail");
    expect(text).toContain('"./hooks/block-git.sh" // keep git out');
    expect(installedEvents(text, F)).toEqual(HOOK_EVENT_NAMES);
    expect(hookCommand(CMD)).toBe('COCKPIT_URL=http://localhost:3000 node "/opt/cockpit/bin/cockpit.mjs" hook cursor');
  });

  it("install is idempotent and remove gives back the original bytes", () => {
    const once = installHooks(DOC_EXAMPLE, CMD, F).text;
    expect(installHooks(once, CMD, F)).toEqual({ text: once, changed: false });
    expect(removeHooks(once, F)).toEqual({ text: DOC_EXAMPLE, changed: true });
    expect(removeHooks(DOC_EXAMPLE, F)).toEqual({ text: DOC_EXAMPLE, changed: false });
  });

  it.each([
    ["an empty file", ""],
    ["a file without hooks", '{\n  "version": 1\n}\n'],
    ["tabs and CRLF", '{\r\n\t"version": 1,\r\n\t"hooks": {\r\n\t\t"stop": [{ "command": "x" }]\r\n\t}\r\n}\r\n'],
    ["a one-line file", '{"version": 1, "hooks": {"stop": [{"command": "x"}]}}'],
  ])("round trip on %s", (_, original) => {
    const installed = installHooks(original, CMD, F).text;
    expect(installedEvents(installed, F)).toEqual(HOOK_EVENT_NAMES);
    const removed = removeHooks(installed, F).text;
    if (original) expect(removed).toBe(original);
    else expect(parse(removed)).toEqual({ version: 1 });
    if (original.includes("\r\n")) expect(installed.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("remove takes only cockpit handlers, whatever URL or path they were written with", () => {
    const other = installHooks(DOC_EXAMPLE, { cliPath: "/elsewhere/cockpit.mjs", url: "https://c.example" }, F).text;
    const back = removeHooks(other, F).text;
    expect(back).toBe(DOC_EXAMPLE);
    expect(isCockpitHandler({ command: "./hooks/audit.sh" })).toBe(false);
    expect(isCockpitHandler({ command: "my-own-tool hook cursor" })).toBe(false);
  });

  it.each([
    ["{ broken", /not valid JSON/],
    ['{"hooks": []}', /hooks/],
    ['{"version": 2, "hooks": {}}', /version 2/],
    ['{"hooks": {"stop": [1]}}', /hooks\.stop\.0/],
  ])("refuses to touch %s", (text, why) => {
    expect(() => installHooks(text, CMD, F)).toThrow(why);
  });
});

describe("editHooksFile on disk", () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox("cursor-hooks-");
  });
  afterEach(() => sb.cleanup());

  it("creates .cursor/hooks.json and removes exactly what it added", async () => {
    const file = path.join(sb.workspace, ".cursor", "hooks.json");
    expect(await editHooksFile(file, sb.workspace, (t) => installHooks(t, CMD, file))).toEqual({ file, changed: true });
    expect(installedEvents(readFileSync(file, "utf8"), file)).toEqual(HOOK_EVENT_NAMES);
    expect(await editHooksFile(file, sb.workspace, (t) => installHooks(t, CMD, file))).toEqual({
      file,
      changed: false,
    });
    await editHooksFile(file, sb.workspace, (t) => removeHooks(t, file));
    expect(parse(readFileSync(file, "utf8"))).toEqual({ version: 1 });
  });

  it("keeps a user's file with comments byte for byte across connect and disconnect", async () => {
    const file = sb.write("~/.cursor/hooks.json", DOC_EXAMPLE);
    await editHooksFile(file, sb.home, (t) => installHooks(t, CMD, file));
    await editHooksFile(file, sb.home, (t) => removeHooks(t, file));
    expect(readFileSync(file, "utf8")).toBe(DOC_EXAMPLE);
  });

  it("a broken file is left untouched; a symlinked one is refused", async () => {
    const file = sb.write(".cursor/hooks.json", "{ broken");
    await expect(editHooksFile(file, sb.workspace, (t) => installHooks(t, CMD, file))).rejects.toThrow(
      /never overwritten/,
    );
    expect(readFileSync(file, "utf8")).toBe("{ broken");
    const target = path.join(sb.root, "hooks-elsewhere.json");
    writeFileSync(target, "{}");
    mkdirSync(path.join(sb.home, ".cursor"), { recursive: true });
    const link = path.join(sb.home, ".cursor", "hooks.json");
    symlinkSync(target, link);
    await expect(editHooksFile(link, sb.home, (t) => installHooks(t, CMD, link))).rejects.toThrow(/symlink/);
    expect(readFileSync(target, "utf8")).toBe("{}");
  });
});
