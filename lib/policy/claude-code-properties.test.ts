/**
 * Property: no generated Claude Code call is allowed while one of the documented always-prompt conditions holds,
 * whatever allow rules are in place (permissions#read-only-commands, #process-wrappers, #redirections;
 * permission-modes#critical-paths, #protected-paths, #actions-no-mode-auto-approves).
 */
import { dialectOf } from "@/lib/agents/dialects";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../agents/shared/shell-parser";
import { decide } from "./decide";
import { parseRule } from "./rule-parse";
import { ctx, HOME, useShell, WS } from "@/test/support/policy";
import type { Rule, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

const SOURCE = { scope: "workspace" as const, store: `${WS}/.claude/settings.json`, base: WS };
const ALLOWS = [
  "Bash",
  "Bash(*)",
  "Bash(* *)",
  "Bash(git *)",
  "Bash(git add *)",
  "Bash(find *)",
  "Bash(sort *)",
  "Bash(sed *)",
  "Bash(rm *)",
  "Bash(rmdir *)",
  "Bash(watch *)",
  "Bash(setsid *)",
  "Bash(ionice *)",
  "Bash(flock *)",
  "Bash(echo *)",
  "Bash(file *)",
  "Bash(npm *)",
  "Bash(bash *)",
  "Bash(cd *)",
  "Bash(tee *)",
  "Edit",
  "Edit(**)",
  "Edit(//**)",
  "Edit(.claude/**)",
  "Edit(.git/**)",
  "Edit(~/**)",
  "Write(**)",
  "AskUserQuestion",
];
const rulesOf = (texts: string[]): Rule[] =>
  texts.flatMap((t) => {
    const r = parseRule(t, "allow", { dialect: dialectOf("claude-code"), source: SOURCE });
    return r.ok ? [r.value] : [];
  });

/** Harmless commands that may surround the offending one. */
const FILLER = ["ls", "git status", "npm test", "echo ok", "cat README.md", "pwd"];
const SEPARATORS = [" && ", " || ", "; ", " | ", " |& ", " & ", "\n"];

/** Commands in which a documented always-prompt condition holds, each named after its passage. */
const PROMPTING: [string, fc.Arbitrary<string>][] = [
  [
    "Commands longer than 10,000 characters always prompt",
    fc.integer({ min: 10_001, max: 12_000 }).map((n) => `echo ${"a".repeat(n)}`),
  ],
  [
    "when Claude Code can't fully parse a command, it asks",
    fc.constantFrom("npm test &&", "ls (", "echo 'unterminated", "git status ||", "cat <<"),
  ],
  [
    "commands with write-capable … flags, such as find, sort, sed, and git, prompt when an unquoted glob is present",
    fc
      .tuple(
        fc.constantFrom("find . -name", "sort", "sed -n 1p", "git add", "git diff"),
        fc.constantFrom("*.ts", "src/*", "a?.txt", "[ab].md"),
      )
      .map(([c, g]) => `${c} ${g}`),
  ],
  [
    "file prompts when it passes -m/--magic-file or -f/--files-from",
    fc.constantFrom("file -m magic a", "file -f list.txt", "file --magic-file=m a"),
  ],
  [
    "cd with git: prompts when the cd changes into a different directory",
    fc.constantFrom("cd src && git status", "cd lib; git log", "cd /tmp && git diff"),
  ],
  [
    "Exec wrappers … can't be auto-approved by a prefix rule",
    fc.constantFrom(
      "watch ls",
      "setsid npm test",
      "ionice -c3 git status",
      "flock /tmp/l npm test",
      "find . -delete",
      "find . -exec cat {} ;",
    ),
  ],
  [
    "rm and rmdir removals targeting a critical path",
    fc.constantFrom(
      "rm -rf /",
      "rm -rf /usr",
      "rmdir /etc",
      "rm -rf ~",
      "rm -rf ..",
      `rm -rf ${WS}`,
      'rm -rf "$DIR"/*',
      'rm -rf "$(pwd)"',
      "rm -rf ~/$(x)",
      "rm -rf logs/*/*",
      "bash -c 'rm -rf ~'",
    ),
  ],
  [
    "A target that starts with ~ or contains a glob character needs your approval",
    fc
      .tuple(
        fc.constantFrom("echo x", "npm test", "git log"),
        fc.constantFrom("~/out.txt", "~/.x", "out*.log", "logs/?.txt"),
      )
      .map(([c, t]) => `${c} > ${t}`),
  ],
  [
    "Writes to protected paths are never auto-approved",
    fc
      .tuple(
        fc.constantFrom("echo x >", "echo x >>", "echo x | tee", "touch", "mkdir"),
        fc.constantFrom(
          ".git/hooks/pre-commit",
          ".claude/settings.json",
          ".husky/x",
          ".vscode/s.json",
          ".bashrc",
          ".mcp.json",
        ),
      )
      .map(([c, t]) => `${c} ${t}`),
  ],
];

const NON_BYPASS = ["default", "acceptEdits", "plan", "dontAsk", "auto"];

describe("Claude Code: documented always-prompt conditions are never allowed", () => {
  for (const [passage, offending] of PROMPTING) {
    it(passage, () => {
      fc.assert(
        fc.property(
          fc.subarray(ALLOWS),
          fc.array(fc.tuple(fc.constantFrom(...FILLER), fc.constantFrom(...SEPARATORS)), { maxLength: 2 }),
          offending,
          fc.boolean(),
          fc.constantFrom(...NON_BYPASS),
          (allows, before, cmd, last, mode) => {
            const parts = before.map(([c, sep]) => c + sep).join("");
            // A dangling `&&`/`||` continues onto the next line: keep the unparsable fragment last.
            const command =
              last || passage.startsWith("when Claude Code can't")
                ? `${parts}${cmd}`
                : `${cmd}${before.length ? before.map(([c, sep]) => sep + c).join("") : ""}`;
            const call: ToolCall = { tool: "Bash", input: { command } };
            const d = decide(
              call,
              ctx({ agent: "claude-code", mode, rules: rulesOf(allows), planDir: `${HOME}/.claude/plans` }),
            );
            expect(d.decision, `${mode} ${JSON.stringify(allows)} ${JSON.stringify(command.slice(0, 200))}`).not.toBe(
              "allow",
            );
          },
        ),
        // Each 10,000-character command is parsed in full (deny rules still see it): fewer runs keep CI fast.
        { numRuns: passage.startsWith("Commands longer") ? 12 : 100 },
      );
    });
  }

  it("protected-path edits by the file tools, in every mode but bypassPermissions", () => {
    fc.assert(
      fc.property(
        fc.subarray(ALLOWS),
        fc.constantFrom(
          ".git/config",
          ".claude/settings.local.json",
          ".vscode/a.json",
          ".idea/x",
          ".cargo/config.toml",
          ".gitmodules",
          ".zshrc",
          "lefthook.yml",
          ".claude.json",
        ),
        fc.constantFrom("Edit", "Write", "MultiEdit"),
        fc.constantFrom(...NON_BYPASS),
        (allows, file, tool, mode) => {
          const call: ToolCall = {
            tool,
            input: { file_path: `${WS}/${file}`, old_string: "a", new_string: "b", content: "x" },
          };
          const d = decide(
            call,
            ctx({ agent: "claude-code", mode, rules: rulesOf(allows), planDir: `${HOME}/.claude/plans` }),
          );
          expect(d.decision).not.toBe("allow");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("critical-path removals and AskUserQuestion, in bypassPermissions too", () => {
    fc.assert(
      fc.property(
        fc.subarray(ALLOWS),
        fc.constantFrom("rm -rf /", "rm -rf ~", "rmdir /usr", 'rm -rf "$X"/*', "ls && rm -rf ..", "echo $(rm -rf /)"),
        fc.constantFrom(...NON_BYPASS, "bypassPermissions"),
        fc.boolean(),
        (allows, command, mode, question) => {
          const call: ToolCall = question
            ? { tool: "AskUserQuestion", input: { questions: [] } }
            : { tool: "Bash", input: { command } };
          const d = decide(call, ctx({ agent: "claude-code", mode, rules: rulesOf(allows) }));
          expect(d.decision).not.toBe("allow");
        },
      ),
      { numRuns: 150 },
    );
  });
});
