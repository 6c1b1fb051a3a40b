import { dialect as MEVEDEL } from "@/lib/agents/mevedel/dialect";
import { beforeAll, describe, expect, it } from "vitest";
import { decide } from "./decide";
import { parseMevedelGrant, parseMevedelRule, parseMevedelRuleText } from "./mevedel-rules";
import { normalizeMode } from "./modes";
import { loadShellParser } from "../agents/shared/shell-parser";
import { ctx, HOME, src, WS, useShell, type CtxOver } from "@/test/support/policy";
import type { Grant, PolicyContext, Rule, RuleSource } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

const persistent = src("workspace", `${WS}/.mevedel/permissions.el`);
const session = src("session", "session:s1");
function r(text: string, source: RuleSource = persistent): Rule {
  const p = parseMevedelRuleText(text, source, MEVEDEL);
  if (!p.ok) throw new Error(`${text}: ${p.error}`);
  return p.value;
}
const bash = (command: string) => ({ tool: "Bash", input: { command } });
const mctx = (over: CtxOver) => ctx({ agent: "mevedel", mode: "ask", ...over });

describe("mevedel rule format", () => {
  it("parses plist rules with each specifier", () => {
    expect(r('("Bash" :pattern "git log*" :action allow)').specifier).toEqual({
      kind: "shell",
      pattern: "git log*",
      dialect: "glob",
    });
    expect(r('("Read" :path "~/notes/*" :action deny)').specifier).toEqual({ kind: "path", pattern: "~/notes/*" });
    expect(r('("Eval" :expression "(message \\"*\\")" :action allow)').specifier).toEqual({
      kind: "expression",
      value: '(message "*")',
    });
    expect(r('("WebFetch" :domain "*.gnu.org" :action allow)').specifier).toEqual({
      kind: "domain",
      pattern: "*.gnu.org",
    });
    expect(r('("Agent" :name "reviewer" :action ask)').specifier).toEqual({ kind: "name", pattern: "reviewer" });
    const p = r(
      '("Bash" :pattern "npx @emacs-eask/cli *" :network t :file-system ((:path "~/.npm" :access write :recursive t)) :action allow)',
    );
    expect(p.profile).toEqual({ network: true, fileSystem: [{ path: "~/.npm", access: "write", recursive: true }] });
  });

  it.each([
    ['("Bash" :pattern "a" :path "b" :action allow)', /one specifier/],
    ['("Bash" :pattern "a" :action maybe)', /action/],
    ['("Bash" :pattern "a"', /missing/],
    ['("Read" :path "x" :network t :action allow)', /profiles/],
    ['("Bash" :pattern "x" :file-system ((:path "rel" :access write)) :action allow)', /absolute/],
    ['("Bash" :bogus "x" :action allow)', /unknown key/],
  ])("rejects %s", (text, re) => {
    const p = parseMevedelRuleText(text, persistent, MEVEDEL);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.error).toMatch(re);
  });

  it("parses grants, expanding ~/ against home", () => {
    expect(parseMevedelGrant('(:path "~/data" :access read :recursive t)', HOME)).toEqual({
      ok: true,
      value: { path: `${HOME}/data`, access: "read", recursive: true },
    });
    expect(parseMevedelGrant('(:path "/x" :access exec)').ok).toBe(false);
    expect(parseMevedelRule({ tool: "Bash", pattern: "ls", action: "allow" }, persistent, MEVEDEL).ok).toBe(true);
  });

  it("normalises modes", () => {
    expect(normalizeMode(MEVEDEL, "ask")).toEqual({ ok: true, value: "default" });
    expect(normalizeMode(MEVEDEL, "edits")).toEqual({ ok: true, value: "accept-edits" });
    expect(normalizeMode(MEVEDEL, "full-auto")).toEqual({ ok: true, value: "yolo" });
    expect(normalizeMode(MEVEDEL, "sometimes").ok).toBe(false);
  });
});

describe("mevedel bucket precedence", () => {
  it("the Bash example from the seed", () => {
    const rules = [
      r('("Bash" :action ask)'),
      r('("Bash" :pattern "echo" :action allow)'),
      r('("Bash" :pattern "echo *" :action allow)'),
      r('("Bash" :pattern "ls" :action allow)'),
      r('("Bash" :pattern "ls *" :action allow)'),
      r('("Bash" :pattern "git log*" :action allow)'),
      r('("Bash" :pattern "rm *" :action deny)'),
    ];
    const c = mctx({ rules });
    expect(decide(bash("git log --oneline"), c).decision).toBe("allow");
    expect(decide(bash("ls -la"), c).decision).toBe("allow");
    expect(decide(bash("lsof"), c).decision).toBe("ask"); // generic ask, "ls *" does not match lsof
    expect(decide(bash("rm x"), c).decision).toBe("deny");
    expect(decide(bash("make"), c)).toMatchObject({ decision: "ask", step: "ask-rule" });
  });

  it("deny in any bucket is absolute", () => {
    const c = mctx({
      rules: [r('("Bash" :pattern "curl *" :action deny)')],
      sessionRules: [r('("Bash" :pattern "curl *" :action allow)', session)],
    });
    expect(decide(bash("curl x"), c).decision).toBe("deny");
    expect(decide(bash("curl x"), { ...c, mode: "full-auto" }).decision).toBe("deny");
  });

  it("the session bucket wins over persistent for allow/ask", () => {
    const c = mctx({
      rules: [r('("Bash" :pattern "make *" :action ask)')],
      sessionRules: [r('("Bash" :pattern "make *" :action allow)', session)],
    });
    expect(decide(bash("make all"), c)).toMatchObject({ decision: "allow", scope: "session" });
    const c2 = mctx({
      rules: [r('("Bash" :pattern "make *" :action allow)')],
      sessionRules: [r('("Bash" :pattern "make *" :action ask)', session)],
    });
    expect(decide(bash("make all"), c2).decision).toBe("ask");
  });

  it("within a bucket specifier rules outrank generic; ask > allow", () => {
    const c = mctx({ rules: [r('("Bash" :action allow)'), r('("Bash" :pattern "make *" :action ask)')] });
    expect(decide(bash("make all"), c).decision).toBe("ask");
    expect(decide(bash("npm i"), c).decision).toBe("allow");
    const c2 = mctx({ rules: [r('("Bash" :action ask)'), r('("Bash" :pattern "make *" :action allow)')] });
    expect(decide(bash("make all"), c2).decision).toBe("allow");
    const c3 = mctx({
      rules: [r('("Bash" :pattern "make *" :action allow)'), r('("Bash" :pattern "make a*" :action ask)')],
    });
    expect(decide(bash("make all"), c3).decision).toBe("ask");
  });

  it("full-auto ignores ask rules and protections but not denies", () => {
    const c = mctx({ mode: "full-auto", rules: [r('("Bash" :pattern "make *" :action ask)')] });
    expect(decide(bash("make all"), c)).toMatchObject({ decision: "allow", step: "yolo" });
    expect(decide({ tool: "ApplyPatch", input: { path: `${WS}/.git/config` } }, c).decision).toBe("allow");
  });

  it("modes: ask asks for uncertain Bash; edits runs it; reads are free", () => {
    expect(decide(bash("make"), mctx({})).decision).toBe("ask");
    expect(decide(bash("make"), mctx({ mode: "edits" })).decision).toBe("allow");
    expect(decide(bash("git status"), mctx({})).decision).toBe("allow");
    expect(decide({ tool: "Read", input: { path: `${WS}/a` } }, mctx({})).decision).toBe("allow");
  });

  it("resource grants authorise paths outside the roots (exact vs recursive, write covers read)", () => {
    const grants: (Grant & { source: RuleSource })[] = [
      { path: "/data/exact.txt", access: "write", recursive: false, source: persistent },
      { path: "~/shared", access: "read", recursive: true, source: persistent },
    ];
    const c = mctx({ grants });
    expect(decide({ tool: "Read", input: { path: "/data/exact.txt" } }, c).decision).toBe("allow");
    expect(decide({ tool: "Read", input: { path: "/data/other.txt" } }, c)).toMatchObject({
      decision: "ask",
      step: "external-dir",
    });
    expect(decide({ tool: "Read", input: { path: `${HOME}/shared/a/b` } }, c).decision).toBe("allow");
    expect(decide({ tool: "ApplyPatch", input: { path: `${HOME}/shared/a` } }, c).decision).toBe("ask");
    expect(decide({ tool: "ApplyPatch", input: { path: "/data/exact.txt" } }, c).decision).toBe("allow");
  });

  it("protected paths need a grant even under an allow rule", () => {
    const c = mctx({ mode: "edits", rules: [r(`("ApplyPatch" :path "${WS}/**" :action allow)`)] });
    expect(decide({ tool: "ApplyPatch", input: { path: `${WS}/.git/config` } }, c)).toMatchObject({
      decision: "ask",
      step: "sensitive-write",
    });
    expect(decide({ tool: "Read", input: { path: `${HOME}/.ssh/id_rsa` } }, c).decision).toBe("ask");
    expect(decide({ tool: "ApplyPatch", input: { path: `${WS}/src/a.el` } }, c).decision).toBe("allow");
  });

  it("a native :path allow authorises an outside path directly", () => {
    const c = mctx({ rules: [r('("Read" :path "/opt/docs/**" :action allow)')] });
    expect(decide({ tool: "Read", input: { path: "/opt/docs/a.txt" } }, c).decision).toBe("allow");
  });

  it(":expression is literal; :pattern on Eval is a glob", () => {
    const c = mctx({ rules: [r('("Eval" :expression "(message \\"*\\")" :action allow)')] });
    expect(decide({ tool: "Eval", input: { expression: '(message "*")' } }, c).decision).toBe("allow");
    expect(decide({ tool: "Eval", input: { expression: '(message "different")' } }, c).decision).toBe("ask");
  });
});
