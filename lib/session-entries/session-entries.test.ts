import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { addSessionEntry, listSessionEntries, revokeSessionEntry } from "./session-entries";

let opened: OpenedDb;
beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
  await opened.db.insert(workspaces).values({ id: "w", path: "/tmp/w", name: "w" });
});
afterAll(async () => opened.close());

describe("session entries", () => {
  it("adds, lists per agent session, revokes, and rejects bad rules", async () => {
    const a = await opened.db.transaction((tx) =>
      addSessionEntry(tx, {
        actorName: "o",
        input: {
          workspaceId: "w",
          agentSessionId: "s1",
          agent: "claude-code",
          action: "allow",
          rule: "Bash(npm test)",
        },
      }),
    );
    await opened.db.transaction((tx) =>
      addSessionEntry(tx, {
        actorName: "o",
        input: { workspaceId: "w", agentSessionId: "s2", agent: "claude-code", action: "deny", rule: "Bash(rm:*)" },
      }),
    );
    expect(
      (await listSessionEntries(opened.db, { workspaceId: "w", agentSessionId: "s1" })).map((r) => r.rule),
    ).toEqual(["Bash(npm test)"]);
    expect(await listSessionEntries(opened.db, { workspaceId: "w" })).toHaveLength(2);
    await revokeSessionEntry(opened.db, { actorName: "o", workspaceId: "w", id: a.id });
    await expect(revokeSessionEntry(opened.db, { actorName: "o", workspaceId: "w", id: a.id })).rejects.toThrow(
      /no session entry/,
    );
    await expect(
      opened.db.transaction((tx) =>
        addSessionEntry(tx, {
          actorName: "o",
          input: { workspaceId: "w", agentSessionId: "s1", agent: "claude-code", action: "allow", rule: "Bash(" },
        }),
      ),
    ).rejects.toThrow(/invalid rule/);
  });
});
