import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSessionEntry, revokeSessionEntry } from "@/lib/session-entries/session-entries";
import { admitCard } from "./admit-card";
import { bash, cardFixture, type CardFixture } from "@/test/support/cards";

// Snapshots reuse parses while versions are unchanged; every change must still reach the decision.
let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
});
afterAll(async () => f.cleanup());

const admit = (command: string, session: string) =>
  admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input: bash(command, session), env: f.env });

describe("snapshot caches", () => {
  it("a session entry added, then revoked, changes the next decision each time", async () => {
    const s = "sess-cache";
    expect((await admit("make one", s)).status).toBe("pending");
    const row = await f.opened.db.transaction((tx) =>
      addSessionEntry(tx, {
        actorName: "alice",
        input: {
          workspaceId: f.workspaceId,
          agentSessionId: s,
          agent: "claude-code",
          action: "allow",
          rule: "Bash(make one)",
        },
      }),
    );
    expect(await admit("make one", s)).toMatchObject({ status: "coalesced", decision: { decision: "allow" } });
    await revokeSessionEntry(f.opened.db, { actorName: "alice", workspaceId: f.workspaceId, id: row.id });
    expect((await admit("make one", s)).status).toBe("pending");
    // Revoke one and add another in its place (same count): still seen.
    const again = await f.opened.db.transaction((tx) =>
      addSessionEntry(tx, {
        actorName: "alice",
        input: {
          workspaceId: f.workspaceId,
          agentSessionId: s,
          agent: "claude-code",
          action: "deny",
          rule: "Bash(make one)",
        },
      }),
    );
    expect(await admit("make one", s)).toMatchObject({ status: "coalesced", decision: { decision: "deny" } });
    await revokeSessionEntry(f.opened.db, { actorName: "alice", workspaceId: f.workspaceId, id: again.id });
  });

  it("a store replaced by a file of the same size (a rename) is read again", async () => {
    f.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(make aaa)"] } }));
    expect(await admit("make aaa", "sess-file")).toMatchObject({ status: "coalesced" });
    const tmp = path.join(f.workspace, ".claude/next.json");
    writeFileSync(tmp, JSON.stringify({ permissions: { allow: ["Bash(make bbb)"] } }));
    renameSync(tmp, path.join(f.workspace, ".claude/settings.json"));
    expect((await admit("make aaa", "sess-file")).status).toBe("pending");
    expect(await admit("make bbb", "sess-file")).toMatchObject({ status: "coalesced" });
  });

  it("a store edited in place to the same size is read again", async () => {
    const file = path.join(f.workspace, ".claude/settings.json");
    writeFileSync(file, JSON.stringify({ permissions: { allow: ["Bash(make ccc)"] } }));
    expect(await admit("make ccc", "sess-edit")).toMatchObject({ status: "coalesced" });
    writeFileSync(file, JSON.stringify({ permissions: { allow: ["Bash(make ddd)"] } }));
    expect((await admit("make ccc", "sess-edit")).status).toBe("pending");
  });
});
