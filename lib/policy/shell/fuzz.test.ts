import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { decide } from "../decide";
import { loadShellParser } from "../../agents/shared/shell-parser";
import { ctx } from "@/test/support/policy";
import { HUGE_COMMANDS, mutatedSeed, randomCommand, unicodeText } from "@/test/support/shell-fuzz";
import type { ShellParser } from "./analyze";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});
const analyzeShell = (command: string) => shell.analyze(command);
const clearShellCache = () => shell.clearCache();

// How long each takes is measured in bench/decide/shell-fuzz.ts (the same inputs; a hang would also run into
// the test's timeout here). These tests check what comes out: no throw, one of the three answers.
function check(command: string): void {
  clearShellCache();
  analyzeShell(command);
  const decision = decide({ tool: "shell_command", input: { command } }, ctx({ mode: "yolo" }));
  expect(["allow", "ask", "deny"]).toContain(decision.decision);
}

describe("shell analysis fuzz", () => {
  it("random commands never throw and get an answer", () => {
    clearShellCache();
    fc.assert(fc.property(randomCommand, check), { numRuns: 1500 });
  });

  it("mutated seed commands never throw and get an answer", () => {
    fc.assert(fc.property(mutatedSeed, check), { numRuns: 1500 });
  });

  it("arbitrary unicode and huge or deeply nested inputs get an answer", () => {
    fc.assert(fc.property(unicodeText, check), { numRuns: 500 });
    for (const command of Object.values(HUGE_COMMANDS)) check(command);
  });
});
