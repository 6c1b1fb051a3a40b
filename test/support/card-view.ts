import type { CardView } from "@/lib/cards/view";

/** A pending Bash card for tests; override what a case needs. */
export function testCard(over: Partial<CardView> = {}): CardView {
  return {
    id: "c1",
    hash: "a".repeat(64),
    status: "pending",
    workspace: { id: "w1", name: "app", path: "/home/me/app" },
    agent: "claude-code",
    sessionId: "11111111-2222-3333-4444-555555555555",
    rootSessionId: "11111111-2222-3333-4444-555555555555",
    originPath: "/root",
    cwd: null,
    tool: "Bash",
    input: { command: "npm test" },
    reason: null,
    modeBase: "default",
    modeEffective: "default",
    cause: "mode",
    warnings: [],
    safetyCheck: false,
    remember: {
      session: ["Bash(npm test:*)"],
      workspace: ["Bash(npm test:*)"],
      workspaceStore: "/home/me/app/.claude/settings.local.json",
    },
    decision: { step: "fallback", reason: "no rule matched", rule: null },
    createdAt: "2026-12-02T14:00:00.000Z",
    displayedAt: null,
    deadline: null,
    settlement: null,
    ...over,
  };
}
