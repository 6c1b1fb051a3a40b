// Issue 10 #3: every matcher shortcut (literal-prefix test, path-segment index, shell leading-word index) must
// answer exactly what the full matcher answers; a shortcut that rejected `/etc` for `//etc/**` hid a deny.
import fc from "fast-check";
import picomatch from "picomatch";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../agents/shared/shell-parser";
import { callFacts } from "./call";
import { candidates, compileRules } from "./match";
import { globMatcher } from "./paths";
import { ctx, rules, useShell } from "@/test/support/policy";

beforeAll(async () => useShell(await loadShellParser()));

const SEG = fc.constantFrom("etc", "ssh", ".ssh", "a", "b", "A", "x.ts", ".env", "s p", "a.b");
const GSEG = fc.constantFrom("etc", ".ssh", "a", "A", "*", "**", "*.ts", ".env*", "?", "x.ts", "a.b", "{a,b}", "[ab]");
const path = fc.array(SEG, { minLength: 1, maxLength: 5 }).map((s) => "/" + s.join("/"));
const glob = fc
  .tuple(fc.array(GSEG, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([s, slash]) => "/" + s.join("/") + (slash ? "/" : ""));

describe("matcher shortcuts equal plain picomatch", () => {
  it("globMatcher's literal-prefix shortcut is never looser nor stricter than picomatch", () => {
    fc.assert(
      fc.property(glob, path, fc.boolean(), (g, p, nocase) => {
        const plain = picomatch.makeRe(g.slice(1), { dot: true, nocase }).test(p.slice(1));
        expect(globMatcher(g, nocase)(p), `${g} on ${p}`).toBe(plain);
      }),
      { numRuns: 4000 },
    );
  });

  it("the path-segment index offers every deny rule whose matcher matches", () => {
    fc.assert(
      fc.property(glob, path, fc.boolean(), (g, p, ci) => {
        const c = ctx({ caseInsensitiveFs: ci, rules: rules({ deny: [`Read(/${g})`] }) });
        const set = compileRules(c.rules, c);
        const f = callFacts({ tool: "read_file", input: { file_path: p } }, c);
        const [cr] = [
          ...set.deny.byTool.get("read")!.other,
          ...[...set.deny.byTool.get("read")!.byDir.values()].flat(),
        ];
        const offered = candidates(set.deny, f, c).includes(cr);
        if (cr.test(f, c)) expect(offered, `${g} on ${p}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("the shell leading-word index offers every deny rule whose matcher matches", () => {
    const WORD = fc.constantFrom("git", "push", "rm", "-rf", "x", "*", "timeout", "5", "FOO=1", "ls");
    fc.assert(
      fc.property(
        fc.array(WORD, { minLength: 1, maxLength: 4 }),
        fc.array(WORD, { minLength: 1, maxLength: 5 }),
        (pw, cw) => {
          const pattern = pw.join(" ");
          if (pattern.trim() === "" || pattern === "*") return;
          const c = ctx({ rules: rules({ deny: [`Shell(${pattern})`] }) });
          const set = compileRules(c.rules, c);
          const f = callFacts({ tool: "shell_command", input: { command: cw.join(" ") } }, c);
          const entry = set.deny.byTool.get("shell")!;
          const [cr] = [...entry.other, ...[...entry.byWord.values()].flat()];
          if (cr.test(f, c))
            expect(candidates(set.deny, f, c).includes(cr), `${pattern} on ${cw.join(" ")}`).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
