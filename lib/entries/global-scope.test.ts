import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDb, type OpenedDb } from "@/db/client";
import { auditEvents, workspaces } from "@/db/schema";
import { AuditPageQuery, listAuditEvents } from "@/lib/audit/query";
import { ownerActor, personActor } from "@/test/support/auth";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import {
  addWorkspaceEntry,
  cleanUpWorkspace,
  listWorkspaceEntries,
  narrowWorkspaceEntry,
  revokeWorkspaceEntry,
} from "./index";

// Issue 18, HIGH 2: an admin of workspace A could write $HOME/.claude/settings.json, which governs every workspace,
// by naming A in the request. Global (and managed) stores now need the role on all workspaces.
const adminOfA = personActor({ userId: "u-a", name: "ada", grants: [{ workspace: "a", role: "admin" }] });
const adminOfB = personActor({ userId: "u-b", name: "bob", grants: [{ workspace: "b", role: "admin" }] });
const viewerOfB = personActor({ userId: "u-v", name: "vic", grants: [{ workspace: "b", role: "viewer" }] });
const owner = ownerActor({ userId: "u1", name: "olga" });

let opened: OpenedDb;
let sb: Sandbox;
const savedHome = process.env.HOME;
const savedManaged = process.env.COCKPIT_MANAGED_SETTINGS;

beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
});
afterAll(async () => {
  process.env.HOME = savedHome;
  if (savedManaged === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = savedManaged;
  await opened.close();
});
beforeEach(async () => {
  sb = makeSandbox("global-scope-");
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  await opened.db.delete(auditEvents);
  await opened.db.delete(workspaces);
  await opened.db.insert(workspaces).values([
    { id: "a", path: sb.workspace, name: "a" },
    { id: "b", path: sb.abs("other"), name: "b" },
  ]);
  sb.write("other/.keep", "");
  sb.write(
    "~/.claude/settings.json",
    '{ "permissions": { "deny": ["Bash(curl:*)"], "allow": ["Bash(ls)", "Bash(ls)"] } }\n',
  );
});
afterEach(() => sb.cleanup());

const globalFile = () => readFileSync(sb.abs("~/.claude/settings.json"), "utf8");
const globalEntry = async (rule: string) => {
  const { entries } = await listWorkspaceEntries({ db: opened.db, actor: owner, input: { workspace: "a" } });
  return entries.find((e) => e.scope === "global" && e.rule === rule)!;
};

describe("global scope needs the right on every workspace", () => {
  it("an admin of one workspace cannot add, revoke, narrow or clean up a global rule; the file is unchanged", async () => {
    const before = globalFile();
    await expect(
      addWorkspaceEntry({
        db: opened.db,
        actor: adminOfA,
        input: { workspace: "a", agent: "claude-code", scope: "global", action: "allow", rule: "Bash(curl:*)" },
      }),
    ).rejects.toThrow(/global rules govern every workspace.*admin role on all workspaces/);
    const deny = await globalEntry("Bash(curl:*)");
    await expect(
      revokeWorkspaceEntry({
        db: opened.db,
        actor: adminOfA,
        input: { workspace: "a", id: deny.id, version: deny.store.version },
      }),
    ).rejects.toThrow(/all workspaces/);
    const ls = await globalEntry("Bash(ls)");
    await expect(
      narrowWorkspaceEntry({
        db: opened.db,
        actor: adminOfA,
        input: { workspace: "a", id: ls.id, version: ls.store.version, to: "Bash(ls -l)" },
      }),
    ).rejects.toThrow(/all workspaces/);
    const preview = await cleanUpWorkspace({ db: opened.db, actor: adminOfA, input: { workspace: "a" } });
    const globalPlan = preview.files.find((f) => f.scope === "global")!;
    expect(globalPlan.removed.length).toBeGreaterThan(0);
    await expect(
      cleanUpWorkspace({
        db: opened.db,
        actor: adminOfA,
        input: { workspace: "a", confirm: { [globalPlan.store]: globalPlan.version } },
      }),
    ).rejects.toThrow(/all workspaces/);
    expect(globalFile()).toBe(before);
    // Workspace scope still works for the admin of A.
    await addWorkspaceEntry({
      db: opened.db,
      actor: adminOfA,
      input: { workspace: "a", agent: "claude-code", scope: "workspace", action: "deny", rule: "Bash(rm:*)" },
    });
  });

  it("the owner's global change is audited with no workspace, visible to every workspace's admins but not viewers", async () => {
    const deny = await globalEntry("Bash(curl:*)");
    await revokeWorkspaceEntry({
      db: opened.db,
      actor: owner,
      input: { workspace: "a", id: deny.id, version: deny.store.version },
    });
    expect(globalFile()).not.toContain("curl");
    const q = AuditPageQuery.parse({ type: "entry.revoked" });
    const seenByB = await listAuditEvents(opened.db, adminOfB, q);
    expect(seenByB.events).toHaveLength(1);
    expect(seenByB.events[0]).toMatchObject({ workspace: null, rule: "Bash(curl:*)" });
    expect((await listAuditEvents(opened.db, viewerOfB, q)).events).toHaveLength(0);
  });
});
