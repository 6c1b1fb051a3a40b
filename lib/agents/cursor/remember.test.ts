import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import type { ShellParser } from "@/lib/policy";
import { ctxOf, GLOBAL, perms, PROJECT, store } from "@/test/support/cursor";
import type { CursorCall } from "./call";
import { rememberCursor } from "./remember";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});

const remember = (call: CursorCall, stores = [store(perms())]) => rememberCursor(call, ctxOf(stores, shell));

describe("rememberCursor: the narrowest documented token for exactly this call", () => {
  it.each<[CursorCall, string]>([
    [{ tool: "Shell", command: "npm run test -- --watch=false" }, "Shell(npm:run test -- --watch=false)"],
    [{ tool: "Shell", command: "git  status" }, "Shell(git:status)"],
    [{ tool: "Read", path: "src/a.ts" }, "Read(src/a.ts)"],
    [{ tool: "Write", path: "/etc/hosts" }, "Write(/etc/hosts)"],
    [{ tool: "WebFetch", url: "https://Docs.GitHub.com/en" }, "WebFetch(docs.github.com)"],
    [{ tool: "Mcp", server: "datadog", name: "query" }, "Mcp(datadog:query)"],
  ])("%j → %s in the project's cli.json", (call, token) => {
    expect(remember(call)).toMatchObject({ ok: true, token, file: PROJECT, scope: "workspace" });
  });

  it.each<[CursorCall, RegExp]>([
    [{ tool: "Shell", command: "git status && rm -rf x" }, /single simple command/],
    [{ tool: "Shell", command: "ls" }, /without arguments/],
    [{ tool: "Shell", command: 'git commit -m "a b"' }, /quoted/],
    [{ tool: "Shell", command: "ls *.ts" }, /expansions|wildcard/],
    [{ tool: "Shell", command: "FOO=1 make x" }, /VAR=/],
    [{ tool: "Read", path: "src/*.ts" }, /glob/],
    [{ tool: "Mcp", server: null, name: "query" }, /server is unknown/],
  ])("%j is refused: %s", (call, why) => {
    const r = remember(call);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(why);
  });

  it("refuses when a deny would still win", () => {
    const r = remember({ tool: "Shell", command: "rm -f a.txt" }, [store(perms([], ["Shell(rm)"]))]);
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/would deny/) });
  });

  it("warns when a new project allow list sets global allows aside", () => {
    const r = remember({ tool: "Shell", command: "npm test" }, [store(perms(["Shell(ls)"]), GLOBAL)]);
    expect(r).toMatchObject({ ok: true, warnings: [expect.stringMatching(/stops counting/)] });
  });
});
