import { beforeAll, describe, expect, it } from "vitest";
import { explicitAllow } from "./basis";
import { loadShellParser } from "../agents/shared/shell-parser";
import { ctx, edit, read, rules, sh, useShell } from "@/test/support/policy";
import type { PolicyContext, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

describe("explicitAllow: what an allow rests on", () => {
  const cases: [string, ToolCall, Partial<PolicyContext>, string | null][] = [
    ["an allow rule", sh("npm test"), { rules: rules({ allow: ["Shell(npm test)"] }) }, "Shell(npm test)"],
    ["read-only shell with no rule: heuristic", sh("cat notes.txt"), {}, null],
    [
      "read-only shell covered by a rule",
      sh("cat notes.txt"),
      { rules: rules({ allow: ["Shell(cat:*)"] }) },
      "Shell(cat:*)",
    ],
    ["file read in the workspace: heuristic", read("/w/a.ts"), {}, null],
    ["accept-edits edit: heuristic", edit("/w/a.ts"), { mode: "accept-edits" }, null],
    ["yolo: heuristic", sh("npm publish"), { mode: "yolo" }, null],
    [
      "yolo with a matching rule",
      sh("npm publish"),
      { mode: "yolo", rules: rules({ allow: ["Shell(npm publish)"] }) },
      "Shell(npm publish)",
    ],
    ["subagent ask turned allow: heuristic", sh("npm publish"), { subagent: true }, null],
    [
      "a deny stays a deny",
      sh("npm test"),
      { rules: rules({ deny: ["Shell(npm:*)"], allow: ["Shell(npm test)"] }) },
      null,
    ],
  ];
  it.each(cases)("%s", (_name, call, over, rule) => {
    const d = explicitAllow(call, ctx(over));
    expect(d?.rule ?? null).toBe(rule);
    if (d) expect(d).toMatchObject({ decision: "allow", step: "allow-rule", cause: "rule" });
  });
});
