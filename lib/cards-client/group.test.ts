import { describe, expect, it } from "vitest";
import { groupByRootSession, shortSessionId } from "./group";
import { testCard } from "@/test/support/card-view";

describe("groupByRootSession", () => {
  it("groups by workspace and root session, oldest first, subagents with their root", () => {
    const cards = [
      testCard({ id: "b2", rootSessionId: "B", createdAt: "2026-12-02T14:05:00Z" }),
      testCard({ id: "a1", rootSessionId: "A", sessionId: "A", createdAt: "2026-12-02T14:01:00Z" }),
      testCard({
        id: "b1",
        rootSessionId: "B",
        sessionId: "sub",
        originPath: "/root/worker",
        createdAt: "2026-12-02T14:00:00Z",
      }),
      testCard({ id: "a2", rootSessionId: "A", createdAt: "2026-12-02T14:03:00Z" }),
      testCard({
        id: "x1",
        rootSessionId: "A",
        workspace: { id: "w2", name: "other", path: "/o" },
        createdAt: "2026-12-02T14:02:00Z",
      }),
    ];
    const groups = groupByRootSession(cards);
    expect(groups.map((g) => [g.rootSessionId, g.workspace.id, g.cards.map((c) => c.id)])).toEqual([
      ["B", "w1", ["b1", "b2"]],
      ["A", "w1", ["a1", "a2"]],
      ["A", "w2", ["x1"]],
    ]);
  });

  it("returns nothing for an empty queue", () => {
    expect(groupByRootSession([])).toEqual([]);
  });

  it("shortens long session ids only", () => {
    expect(shortSessionId("11111111-2222-3333")).toBe("11111111");
    expect(shortSessionId("main")).toBe("main");
  });
});
