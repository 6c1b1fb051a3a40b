import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import type { ShellParser } from "@/lib/policy";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import { loadMcpServers } from "./context";
import { decideCursorOnDisk } from "./decide-on-disk";
import { cursorEntries, findCursorEntry } from "../entries";
import { loadCursorStores } from "./stores";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("cursor-disk-");
  mkdirSync(path.join(sb.workspace, ".git"));
  sb.write(
    "~/.cursor/cli-config.json",
    JSON.stringify(
      { version: 1, editor: { vimMode: false }, permissions: { allow: ["Shell(ls)"], deny: ["Shell(rm)"] } },
      null,
      2,
    ),
  );
  sb.write(
    ".cursor/cli.json",
    '{\n  // project\n  "permissions": {\n    "deny": ["Read(.env*)", "Read(.env*)", "bogus"]\n  }\n}\n',
  );
});
afterEach(() => sb.cleanup());

describe("entries", () => {
  it("lists every entry with a stable id, malformed ones included", async () => {
    const stores = await loadCursorStores({ workspace: sb.workspace, home: sb.home });
    const entries = cursorEntries(stores);
    expect(entries.map((e) => [e.scope, e.action, e.rule, e.line, e.tool])).toEqual([
      ["global", "allow", "Shell(ls)", 8, "Shell"],
      ["global", "deny", "Shell(rm)", 11, "Shell"],
      ["workspace", "deny", "Read(.env*)", 4, "Read"],
      ["workspace", "deny", "Read(.env*)", 4, "Read"],
      ["workspace", "deny", "bogus", 4, null],
    ]);
    expect(entries[4].malformed).toMatch(/not a permission token/);
    expect(new Set(entries.map((e) => e.id)).size).toBe(5);
    expect(entries[0].store).toMatchObject({ format: "cursor-json", valid: true });
    const again = cursorEntries(await loadCursorStores({ workspace: sb.workspace, home: sb.home }));
    expect(again.map((e) => e.id)).toEqual(entries.map((e) => e.id));
    expect(findCursorEntry(stores, entries[3].id)?.rule).toMatchObject({ index: 1, text: "Read(.env*)" });
    expect(findCursorEntry(stores, "nope")).toBeNull();
  });
});

describe("decideCursorOnDisk (the decide --agent cursor contract)", () => {
  it("prints decision, step, rule, scope, store, reason and inferred", async () => {
    const r = await decideCursorOnDisk({
      workspace: sb.workspace,
      home: sb.home,
      shell,
      call: { tool: "Shell", input: { command: "ls -la" } },
    });
    expect(r).toEqual({
      ok: true,
      output: expect.objectContaining({
        decision: "allow",
        step: "allow-rule",
        rule: "Shell(ls)",
        scope: "global",
        store: path.join(sb.home, ".cursor/cli-config.json"),
        inferred: false,
        inferredWhy: [],
      }),
    });
    const d = await decideCursorOnDisk({
      workspace: sb.workspace,
      home: sb.home,
      shell,
      call: { tool: "Read", input: { path: "app/.env" } },
      explain: true,
    });
    expect(d).toMatchObject({ ok: true, output: { decision: "deny", inferred: true, trace: expect.any(Array) } });
  });

  it("refuses a bad mode or call with a reason", async () => {
    expect(
      await decideCursorOnDisk({ workspace: sb.workspace, home: sb.home, shell, mode: "plan", call: {} }),
    ).toMatchObject({ ok: false, error: /unknown Cursor mode/ });
    expect(
      await decideCursorOnDisk({ workspace: sb.workspace, home: sb.home, shell, call: { tool: "Grep", input: {} } }),
    ).toMatchObject({ ok: false, error: /unknown tool/ });
  });
});

describe("loadMcpServers", () => {
  it("reads project and user mcp.json; the project's names win; broken files count for nothing", async () => {
    sb.write(
      "~/.cursor/mcp.json",
      JSON.stringify({ mcpServers: { datadog: { url: "https://old" }, gh: { command: "npx", args: ["gh"] } } }),
    );
    sb.write(".cursor/mcp.json", '{ "mcpServers": { "datadog": { "url": "https://new" } }, }');
    expect(await loadMcpServers(sb.workspace, sb.home)).toEqual({
      datadog: { url: "https://new" },
      gh: { command: "npx", args: ["gh"] },
    });
    sb.write(".cursor/mcp.json", "{ nope");
    expect(Object.keys(await loadMcpServers(sb.workspace, sb.home))).toEqual(["datadog", "gh"]);
  });
});
