/**
 * Issue 18, MEDIUM 8: the data-folder guard resolved only a path that was itself a link (one hop), and skipped
 * words with variables. `ln -s /tmp t && cat t/<data>/local-credential.json`, a workspace symlink to the data
 * folder and `cat "$COCKPIT_DATA/…"` were allowed by ordinary rules. Now every hop of the longest existing prefix
 * is resolved, and a variable word that names the cockpit or its folder asks.
 */
import { dialectOf } from "@/lib/agents/dialects";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide, type PolicyContext, type Rule, type ShellParser } from "@/lib/policy";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import { resolveSymlink } from "./policy-context";

let root: string;
let ws: string;
let data: string;
let shell: ShellParser;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "protected-links-"));
  ws = path.join(root, "ws");
  data = path.join(root, "cockpit-data");
  mkdirSync(ws);
  mkdirSync(data);
  writeFileSync(path.join(data, "local-credential.json"), "{}");
  symlinkSync(root, path.join(ws, "t")); // an ancestor of the data folder
  symlinkSync(data, path.join(ws, "d")); // the data folder itself
  shell = await loadShellParser();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const allow = (pattern: string): Rule => ({
  tool: "Bash",
  action: "allow",
  agent: "claude-code",
  specifier: { kind: "shell", pattern, dialect: "prefix" },
  source: { scope: "workspace", store: path.join(ws, ".claude/settings.json"), base: ws },
  text: `Bash(${pattern}:*)`,
});
const ctx = (rules: Rule[]): PolicyContext => ({
  dialect: dialectOf("claude-code"),
  mode: "default",
  workspaceRoot: ws,
  cwd: ws,
  home: path.join(root, "home"),
  rules,
  shell,
  protectedPaths: [data],
  resolveSymlink,
});
const bash = (command: string) => ({ tool: "Bash", input: { command } });

describe("resolveSymlink resolves every hop of the longest existing prefix", () => {
  it("through a linked ancestor, for a file that exists and one that does not", () => {
    expect(resolveSymlink(path.join(ws, "t", "cockpit-data", "local-credential.json"))).toBe(
      path.join(data, "local-credential.json"),
    );
    expect(resolveSymlink(path.join(ws, "d", "not-yet"))).toBe(path.join(data, "not-yet"));
    expect(resolveSymlink(path.join(ws, "plain.txt"))).toBeNull();
  });
});

describe("the data-folder guard", () => {
  it.each([
    ["cat t/cockpit-data/local-credential.json"],
    ["cat d/local-credential.json"],
    ['cat "$COCKPIT_DATA/local-credential.json"'],
    ["cat $D/local-credential.json"],
    ["cat ${X}/cockpit-data/x"],
  ])("%s asks as a protected safety check even with an allow rule for cat", (command) => {
    const d = decide(bash(command), ctx([allow("cat")]));
    expect(d.decision).toBe("ask");
    expect(d.protected).toBe(true);
  });

  it("an ordinary variable word is not protected", () => {
    expect(decide(bash('cat "$FILE"'), ctx([allow("cat")])).protected).toBeFalsy();
  });

  it("a file tool through a linked folder asks too", () => {
    const d = decide(
      { tool: "Read", input: { file_path: path.join(ws, "t/cockpit-data/local-credential.json") } },
      ctx([]),
    );
    expect(d.protected).toBe(true);
  });
});
