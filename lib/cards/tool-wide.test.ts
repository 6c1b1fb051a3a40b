import { describe, expect, it } from "vitest";
import { isToolWideRule } from "./tool-wide";

describe("isToolWideRule", () => {
  it.each([
    "Bash",
    "Bash(*)",
    "Bash( * )",
    "Shell(*)",
    "Shell(:*)",
    "shell_command",
    "Edit",
    "Edit(**)",
    "Read(/**)",
    "WebFetch",
    "PowerShell(*)",
  ])("%s is tool-wide", (rule) => expect(isToolWideRule(rule)).toBe(true));
  it.each([
    "Bash(npm test)",
    "Bash(git *)",
    "Shell(git:*)",
    "Edit(/src/a.ts)",
    "mcp__github__create_issue",
    "Agent",
    "WebFetch(domain:example.com)",
  ])("%s is not", (rule) => expect(isToolWideRule(rule)).toBe(false));
});
