import { dialectOf } from "@/lib/agents/dialects";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import type { ShellParser } from "./types";
import { isToolWideText } from "./tool-wide";

// Issue 18, HIGH 3: two hand-written predicates disagreed and each missed spellings (`Bash(* *)`, `Edit(//**)`).
// Now the engine's own matcher decides "matches every input of its tool".
let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});

describe("isToolWideText: the engine's one tool-wide predicate", () => {
  it.each([
    ["claude-code", "Bash"],
    ["claude-code", "Bash(*)"],
    ["claude-code", "Bash(:*)"],
    ["claude-code", "Bash(*:*)"],
    ["claude-code", "Bash(***)"],
    ["claude-code", "Bash(* *)"],
    ["claude-code", "Bash(**)"],
    ["claude-code", "Edit"],
    ["claude-code", "Edit(//**)"],
    ["claude-code", "Read(//**)"],
    ["claude-code", "WebFetch"],
    ["commandcode", "Shell(*)"],
    ["commandcode", "Shell"],
  ] as const)("%s %s matches every input of its tool", (agent, rule) => {
    expect(isToolWideText(rule, dialectOf(agent), shell)).toBe(true);
  });

  it.each([
    ["claude-code", "Bash(npm test)"],
    ["claude-code", "Bash(git:*)"],
    ["claude-code", "Bash(kubectl delete:*)"],
    ["claude-code", "Edit(src/**)"],
    // Relative to the working directory and to the settings file's project: the workspace, not every file.
    ["claude-code", "Edit(**)"],
    ["claude-code", "Edit(/**)"],
    ["claude-code", "Edit(/src/**)"],
    ["claude-code", "Read(~/.ssh/**)"],
    ["claude-code", "WebFetch(domain:example.com)"],
    ["claude-code", "mcp__github__get_issue"],
    ["commandcode", "Shell(git:*)"],
  ] as const)("%s %s does not", (agent, rule) => {
    expect(isToolWideText(rule, dialectOf(agent), shell)).toBe(false);
  });
});
