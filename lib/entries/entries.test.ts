import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDb, type OpenedDb } from "@/db/client";
import { auditEvents, workspaces } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { ownerActor, roleEverywhere } from "@/test/support/auth";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";
import {
  addWorkspaceEntry,
  addWorkspaceSessionEntry,
  listWorkspaceEntries,
  narrowWorkspaceEntry,
  previewNarrowing,
  revokeWorkspaceEntry,
  suggestWorkspaceNarrowings,
} from "./index";

const owner: Actor = ownerActor({ userId: "u1", name: "olga", sessionId: "s" });
const viewer: Actor = roleEverywhere("viewer", { userId: "u2", name: "vic", sessionId: "s2" });

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
  sb = makeSandbox("entries-");
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  await opened.db.delete(auditEvents);
  await opened.db.delete(workspaces);
  await opened.db.insert(workspaces).values({ id: "w", path: sb.workspace, name: "project" });
  sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
  sb.write(".mevedel/permissions.el", FIXTURES.mevedel);
  sb.write("~/.claude/settings.json", FIXTURES.claudeCrlf3);
  sb.write(".claude/settings.json", '{ "permissions": { "allow": ["Bash(ls" ');
});
afterEach(() => sb.cleanup());

const db = () => opened.db;
const list = (input: Record<string, string> = {}) =>
  listWorkspaceEntries({ db: db(), actor: owner, input: { workspace: "w", ...input } });
const audit = () => db().select().from(auditEvents).orderBy(auditEvents.seq);

describe("listWorkspaceEntries", () => {
  it("lists every scope with stores, invalid ones included, grouped session→workspace→global, filtered on the server", async () => {
    await addWorkspaceSessionEntry({
      db: db(),
      actor: owner,
      input: {
        workspace: "w",
        agentSessionId: "agent-1",
        agent: "claude-code",
        action: "allow",
        rule: "Bash(npm test)",
      },
    });
    const all = await list();
    expect(all.entries[0]).toMatchObject({ scope: "session", rule: "Bash(npm test)", agentSessionId: "agent-1" });
    expect(all.entries.map((e) => e.scope)).toEqual(
      [...all.entries.map((e) => e.scope)].sort(
        (a, b) =>
          ["session", "workspace", "global", "managed"].indexOf(a) -
          ["session", "workspace", "global", "managed"].indexOf(b),
      ),
    );
    const invalid = all.stores.find((s) => s.path === sb.abs(".claude/settings.json"))!;
    expect(invalid).toMatchObject({ valid: false, writable: false });
    expect(invalid.error).toMatch(/line \d+/);
    expect(all.counts).toMatchObject({ session: 1, global: 3 });
    const git = all.entries.find((e) => e.rule === "Shell(git:*)")!;
    expect(git.lineText).toBe('      "Shell(git:*)", // everything git');
    const filtered = await list({ scope: "workspace", action: "deny", q: "rm" });
    expect(filtered.entries.map((e) => e.rule)).toEqual(["Shell(rm -rf *)", '("Bash" :pattern "rm *" :action deny)']);
    expect(filtered.matched).toBe(2);
    expect(filtered.total).toBe(all.total);
    expect((await list({ tool: "grant" })).entries.every((e) => e.kind === "grant")).toBe(true);
    const paged = await listWorkspaceEntries({
      db: db(),
      actor: owner,
      input: { workspace: "w", offset: 2, limit: 3 },
    });
    expect(paged.entries.map((e) => e.id)).toEqual(all.entries.slice(2, 5).map((e) => e.id));
  });

  it("lets a viewer read but not write", async () => {
    const listing = await listWorkspaceEntries({ db: db(), actor: viewer, input: { workspace: "w" } });
    const git = listing.entries.find((e) => e.rule === "Shell(git:*)")!;
    const input = { workspace: "w", id: git.id, version: git.store.version };
    await expect(revokeWorkspaceEntry({ db: db(), actor: viewer, input })).rejects.toMatchObject({ status: 403 });
    await expect(
      narrowWorkspaceEntry({ db: db(), actor: viewer, input: { ...input, to: "Shell(git status:*)" } }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      addWorkspaceEntry({
        db: db(),
        actor: viewer,
        input: { workspace: "w", agent: "commandcode", scope: "workspace", action: "allow", rule: "Read" },
      }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      addWorkspaceSessionEntry({
        db: db(),
        actor: viewer,
        input: { workspace: "w", agentSessionId: "a", agent: "claude-code", action: "allow", rule: "Read" },
      }),
    ).rejects.toMatchObject({ status: 403 });
    const agent: Actor = { kind: "agent", tokenId: "t", workspaceId: "w", name: "bot" };
    await expect(listWorkspaceEntries({ db: db(), actor: agent, input: { workspace: "w" } })).rejects.toMatchObject({
      status: 403,
    });
    expect(readFileSync(sb.abs(".commandcode/settings.json"), "utf8")).toBe(FIXTURES.commandcodeJsonc);
    expect(await audit()).toEqual([]);
  });

  it("answers 404 for an unknown workspace", async () => {
    await expect(list({ workspace: "nope" })).rejects.toMatchObject({ status: 404 });
  });
});

describe("writes", () => {
  it("revokes a workspace entry: only its line goes, audit row with versions and line text", async () => {
    const git = (await list()).entries.find((e) => e.rule === "Shell(git:*)")!;
    const result = await revokeWorkspaceEntry({
      db: db(),
      actor: owner,
      input: { workspace: "w", id: git.id, version: git.store.version },
    });
    expect(result.scopeWarning).toBeUndefined();
    expect(sb.read(".commandcode/settings.json")).toBe(
      FIXTURES.commandcodeJsonc.replace('      "Shell(git:*)", // everything git\n', ""),
    );
    const [row] = await audit();
    expect(row).toMatchObject({ actor: "olga", action: "entry.revoked", target: git.id, workspaceId: "w" });
    expect(row!.detail).toMatchObject({
      scope: "workspace",
      store: sb.abs(".commandcode/settings.json"),
      rule: "Shell(git:*)",
      entryAction: "allow",
      before: { version: git.store.version, text: '      "Shell(git:*)", // everything git' },
    });
    expect((row!.detail.after as { version: string }).version).toMatch(/^[0-9a-f]{64}$/);
  });

  it("warns that a global revoke affects every project", async () => {
    const global = (await list({ scope: "global" })).entries[0]!;
    const result = await revokeWorkspaceEntry({
      db: db(),
      actor: owner,
      input: { workspace: "w", id: global.id, version: global.store.version },
    });
    expect(result.scopeWarning).toMatch(/affects every project/);
    expect((await audit())[0]!.detail).toMatchObject({ scope: "global", scopeWarning: result.scopeWarning });
  });

  it("refuses a stale version with 409 and writes nothing", async () => {
    const git = (await list()).entries.find((e) => e.rule === "Shell(git:*)")!;
    const edited = FIXTURES.commandcodeJsonc.replace("/* rules */", "/* rules, edited by hand */");
    sb.write(".commandcode/settings.json", edited);
    await expect(
      revokeWorkspaceEntry({
        db: db(),
        actor: owner,
        input: { workspace: "w", id: git.id, version: git.store.version },
      }),
    ).rejects.toMatchObject({ status: 409, details: { kind: "changed-on-disk" }, message: /changed on disk/ });
    expect(sb.read(".commandcode/settings.json")).toBe(edited);
    expect(await audit()).toEqual([]);
  });

  it("lists, revokes and audits session entries through the same verbs", async () => {
    const added = await addWorkspaceSessionEntry({
      db: db(),
      actor: owner,
      input: {
        workspace: "w",
        agentSessionId: "agent-1",
        agent: "claude-code",
        action: "allow",
        rule: "Bash(npm test)",
      },
    });
    const session = (await list({ scope: "session" })).entries;
    expect(session.map((e) => e.id)).toEqual([added.entryId]);
    await revokeWorkspaceEntry({
      db: db(),
      actor: owner,
      input: { workspace: "w", id: added.entryId, version: "database" },
    });
    expect((await list({ scope: "session" })).entries).toEqual([]);
    expect((await audit()).map((r) => r.action)).toEqual(["entry.added", "entry.revoked"]);
    await expect(
      revokeWorkspaceEntry({
        db: db(),
        actor: owner,
        input: { workspace: "w", id: added.entryId, version: "database" },
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("narrows when proved, refuses with the engine's reason otherwise, previews without writing", async () => {
    const git = (await list()).entries.find((e) => e.rule === "Shell(git:*)")!;
    const refused = await previewNarrowing({
      db: db(),
      actor: viewer,
      input: { workspace: "w", id: git.id, to: "Shell(npm:*)" },
    });
    expect(refused).toMatchObject({ proved: false, reason: expect.stringMatching(/^cannot prove narrower: /) });
    expect(
      await previewNarrowing({
        db: db(),
        actor: viewer,
        input: { workspace: "w", id: git.id, to: "Shell(git status:*)" },
      }),
    ).toMatchObject({ proved: true, reason: "narrower ✓" });
    expect(
      (await suggestWorkspaceNarrowings({ db: db(), actor: viewer, input: { workspace: "w", id: git.id } }))
        .suggestions,
    ).toEqual(expect.arrayContaining(["ask", "Shell(git status:*)"]));
    expect(sb.read(".commandcode/settings.json")).toBe(FIXTURES.commandcodeJsonc);
    await expect(
      narrowWorkspaceEntry({
        db: db(),
        actor: owner,
        input: { workspace: "w", id: git.id, version: git.store.version, to: "Shell(npm:*)" },
      }),
    ).rejects.toMatchObject({ status: 422, message: /cannot prove narrower/ });
    const result = await narrowWorkspaceEntry({
      db: db(),
      actor: owner,
      input: { workspace: "w", id: git.id, version: git.store.version, to: "Shell(git status:*)" },
    });
    expect(result.after.text).toContain('"Shell(git status:*)", // everything git');
    expect(sb.read(".commandcode/settings.json")).toBe(
      FIXTURES.commandcodeJsonc.replace('"Shell(git:*)"', '"Shell(git status:*)"'),
    );
    expect((await audit()).map((r) => [r.action, r.detail.rule, r.detail.to])).toEqual([
      ["entry.narrowed", "Shell(git:*)", "Shell(git status:*)"],
    ]);
  });

  it("the narrow dialog's live check asks each agent's own proof through the registry (a Gemini rule), writing nothing", async () => {
    const toml =
      '# mine\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git"\ndecision = "allow"\npriority = 100\n';
    mkdirSync(`${sb.home}/.gemini/policies`, { recursive: true });
    writeFileSync(`${sb.home}/.gemini/policies/mine.toml`, toml);
    const entry = (await list()).entries.find((e) => e.agent === "gemini" && e.rule.includes('commandPrefix = "git"'))!;
    const rule = (prefix: string) =>
      `toolName = "run_shell_command", commandPrefix = "${prefix}", decision = "allow", priority = 100`;
    expect(
      await previewNarrowing({
        db: db(),
        actor: viewer,
        input: { workspace: "w", id: entry.id, to: rule("git status") },
      }),
    ).toEqual({ proved: true, reason: "narrower ✓", to: rule("git status") });
    expect(
      await previewNarrowing({ db: db(), actor: viewer, input: { workspace: "w", id: entry.id, to: rule("gi") } }),
    ).toMatchObject({ proved: false, reason: expect.stringMatching(/^cannot prove narrower: commandPrefix changes/) });
    expect(
      (await suggestWorkspaceNarrowings({ db: db(), actor: viewer, input: { workspace: "w", id: entry.id } }))
        .suggestions,
    ).toEqual([]);
    expect(readFileSync(`${sb.home}/.gemini/policies/mine.toml`, "utf8")).toBe(toml);
  });

  it("refuses writes to an invalid store (422) and never touches it", async () => {
    const before = sb.read(".claude/settings.json");
    await expect(
      addWorkspaceEntry({
        db: db(),
        actor: owner,
        input: {
          workspace: "w",
          agent: "claude-code",
          scope: "workspace",
          file: "settings.json",
          action: "allow",
          rule: "Read",
        },
      }),
    ).rejects.toMatchObject({ status: 422, details: { kind: "invalid-store" } });
    expect(sb.read(".claude/settings.json")).toBe(before);
  });

  it("adds workspace and global rules, validates the rule, records the addition", async () => {
    const local = await addWorkspaceEntry({
      db: db(),
      actor: owner,
      input: {
        workspace: "w",
        agent: "claude-code",
        scope: "workspace",
        file: "settings.local.json",
        action: "ask",
        rule: "Bash(git push:*)",
      },
    });
    expect(local).toMatchObject({ unchanged: false, store: sb.abs(".claude/settings.local.json") });
    const global = await addWorkspaceEntry({
      db: db(),
      actor: owner,
      input: {
        workspace: "w",
        agent: "mevedel",
        scope: "global",
        action: "allow",
        rule: '(:path "~/notes" :access read)',
      },
    });
    expect(global.scopeWarning).toMatch(/every project/);
    expect(sb.read("~/.mevedel/permissions.el")).toContain('(:path "~/notes" :access read)');
    await expect(
      addWorkspaceEntry({
        db: db(),
        actor: owner,
        input: { workspace: "w", agent: "commandcode", scope: "workspace", action: "allow", rule: "Shell(" },
      }),
    ).rejects.toMatchObject({ status: 422, message: /invalid rule/ });
    const again = await addWorkspaceEntry({
      db: db(),
      actor: owner,
      input: {
        workspace: "w",
        agent: "claude-code",
        scope: "workspace",
        file: "settings.local.json",
        action: "ask",
        rule: "Bash(git push:*)",
      },
    });
    expect(again.unchanged).toBe(true);
    const rows = await db().select().from(auditEvents).where(eq(auditEvents.action, "entry.added"));
    expect(rows.map((r) => [r.detail.scope, r.detail.rule])).toEqual([
      ["workspace", "Bash(git push:*)"],
      ["global", '(:path "~/notes" :access read)'],
    ]);
  });
});
