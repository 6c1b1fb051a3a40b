import { describe, expect, it } from "vitest";
import { coveringAllow } from "./remembering";
import { HOME, item, WS } from "@/test/support/hygiene";

const src = { scope: "workspace" as const, store: `${WS}/.claude/settings.local.json`, base: WS };
const env = { workspace: WS, home: HOME };

describe("coveringAllow (always allow on a card)", () => {
  const items = [
    item("claude-code", "global", "allow", "Bash(git:*)", "g"),
    item("claude-code", "local", "deny", "Bash(npm:*)", "d"),
    item("commandcode", "local", "allow", "Shell(npm:*)", "cc"),
  ];
  it("offers the existing allow that covers the new rule", () => {
    const hit = coveringAllow("Bash(git status:*)", "claude-code", src, items, env);
    expect(hit?.entry).toBe("g");
    expect(hit?.message).toContain("already covered by Bash(git:*)");
    expect(coveringAllow("Bash(git:*)", "claude-code", src, items, env)?.entry).toBe("g");
  });
  it("ignores denies, other agents and rules it cannot prove", () => {
    expect(coveringAllow("Bash(npm test)", "claude-code", src, items, env)).toBeNull();
    expect(coveringAllow("Bash(make:*)", "claude-code", src, items, env)).toBeNull();
  });
});
