import { dialectOf } from "@/lib/agents/dialects";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { callFacts } from "./call";
import { allowMatch } from "./context";
import { decide } from "./decide";
import { compileRules, firstMatch } from "./match";
import { isNarrower } from "./narrow";
import { parseRule } from "./rule-parse";
import { loadShellParser } from "../agents/shared/shell-parser";
import { matchShellPattern } from "./shell/pattern";
import { ctx, MODES, src, useShell } from "@/test/support/policy";
import type { Action, Rule, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

const SEGMENTS = [
  "git status",
  "git push origin main",
  "git push --force",
  "npm test",
  "npm run build",
  "npm install x",
  "ls -la",
  "cat .env",
  "rm -rf dist",
  "rm x",
  "FOO=1 npm test",
  "timeout 5 make",
  "make all",
  "echo hi",
  "curl https://x",
  "bash -c 'rm -rf /'",
  "mkdir a",
  "echo $(npm test)",
  "sudo rm -rf ~",
  "python3 x.py",
];
const OPS = [" && ", " || ", "; ", " | ", " & ", "\n"];
const PATHS = [
  "src/a.ts",
  "src/lib/b.ts",
  ".env",
  ".git/config",
  "/etc/hosts",
  "/tmp/x",
  "docs/readme.md",
  "lib/src/c.ts",
  "secrets/k.pem",
];
const SHELL_RULES = [
  "Shell",
  "Shell(git:*)",
  "Shell(git status:*)",
  "Shell(git push:*)",
  "Shell(npm *)",
  "Shell(npm run *)",
  "Shell(npm test)",
  "Shell(rm *)",
  "Shell(rm -rf dist)",
  "Shell(make:*)",
  "Shell(ls*)",
  "Shell(* --force)",
  "Shell(echo *)",
  "Shell(curl:*)",
  "Shell(mkdir a)",
];
const PATH_RULES = [
  "Edit",
  "Edit(src/**)",
  "Edit(src/lib/**)",
  "Edit(/src/**)",
  "Edit(.env)",
  "Read(secrets/**)",
  "Read(.env*)",
  "Edit(//etc/**)",
  "Edit(*.ts)",
  "Write(src/**)",
];
const OTHER_RULES = [
  "mcp__github__*",
  "mcp__github__get_*",
  "mcp__github__get_issue",
  "mcp__github",
  "WebFetch(domain:*.x.com)",
  "WebFetch(domain:x.com)",
];
const ALL_RULES = [...SHELL_RULES, ...PATH_RULES, ...OTHER_RULES];

const parse = (text: string, action: Action): Rule | null => {
  const r = parseRule(text, action, { dialect: dialectOf("commandcode"), source: src() });
  return r.ok ? r.value : null;
};

const command = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 }).chain((segs) =>
  fc.array(fc.constantFrom(...OPS), { minLength: segs.length - 1, maxLength: segs.length - 1 }).map((ops) => ({
    segs,
    text: segs.map((s, i) => (i === 0 ? s : ops[i - 1] + s)).join(""),
  })),
);
const call: fc.Arbitrary<ToolCall> = fc.oneof(
  command.map((c) => ({ tool: "shell_command", input: { command: c.text } })),
  fc
    .tuple(fc.constantFrom("edit_file", "write_file", "read_file"), fc.constantFrom(...PATHS))
    .map(([tool, file_path]) => ({ tool, input: { file_path } })),
  fc
    .constantFrom("mcp__github__get_issue", "mcp__github__create_pr", "mcp__gitlab__x")
    .map((tool) => ({ tool, input: {} })),
  fc
    .constantFrom("https://x.com/a", "https://api.x.com/b", "https://y.org")
    .map((url) => ({ tool: "web_fetch", input: { url } })),
);
const ruleSet = fc
  .array(fc.tuple(fc.constantFrom<Action>("allow", "ask", "deny"), fc.constantFrom(...ALL_RULES)), { maxLength: 8 })
  .map((xs) => xs.map(([a, t]) => parse(t, a)).filter((r): r is Rule => r !== null));

describe("properties", () => {
  it("adding a deny rule never turns a deny into anything else", () => {
    fc.assert(
      fc.property(ruleSet, call, fc.constantFrom(...MODES), fc.constantFrom(...ALL_RULES), (rs, c, mode, extra) => {
        const before = decide(c, ctx({ mode, rules: rs }));
        const deny = parse(extra, "deny");
        if (before.decision !== "deny" || !deny) return;
        expect(decide(c, ctx({ mode, rules: [...rs, deny] })).decision).toBe("deny");
      }),
      { numRuns: 400 },
    );
  });

  it("an allow never covers a compound command with an unmatched part", () => {
    const allows = fc.array(fc.constantFrom(...SHELL_RULES.filter((r) => r !== "Shell")), {
      minLength: 1,
      maxLength: 5,
    });
    fc.assert(
      fc.property(allows, command, fc.constantFrom(...MODES), (texts, cmd, mode) => {
        const rs = texts.map((t) => parse(t, "allow")!);
        const d = decide({ tool: "shell_command", input: { command: cmd.text } }, ctx({ mode, rules: rs }));
        if (d.step !== "allow-rule") return;
        for (const seg of cmd.segs) {
          const covered = rs.some(
            (r) => r.specifier?.kind === "shell" && matchShellPattern(r.specifier.pattern, r.specifier.dialect, seg),
          );
          expect(covered, `${seg} in ${cmd.text}`).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("isNarrower(a, b) proved ⇒ every call b matches, a matches (same matching mode)", () => {
    const c = ctx();
    const matches = (r: Rule, call: ToolCall, action: Action) => {
      const rule = { ...r, action };
      const set = compileRules([rule], c);
      const f = callFacts(call, c);
      return action === "allow" ? allowMatch(set.allow, f, c) !== null : firstMatch(set[action], f, c) !== null;
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL_RULES),
        fc.constantFrom(...ALL_RULES),
        fc.constantFrom<Action>("allow", "ask", "deny"),
        fc.constantFrom<Action>("allow", "ask", "deny"),
        fc.array(call, { minLength: 5, maxLength: 5 }),
        (ta, tb, aa, ab, calls) => {
          const a = parse(ta, aa);
          const b = parse(tb, ab);
          if (!a || !b) return;
          const p = isNarrower({ kind: "rule", rule: a }, { kind: "rule", rule: b });
          if (!p.proved) return;
          for (const k of calls) {
            // allow: b's matches ⊆ a's; ask/deny: a restrictive rule may only grow, so a's matches ⊆ b's.
            if (aa === "allow") {
              if (matches(b, k, "allow"))
                expect(matches(a, k, "allow"), `${ta} ⊇ ${tb} on ${JSON.stringify(k)}`).toBe(true);
            } else if (matches(a, k, "deny"))
              expect(matches(b, k, "deny"), `${tb} ⊇ ${ta} on ${JSON.stringify(k)}`).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
