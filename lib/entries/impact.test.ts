import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { recordAudit, recordAuditBatch } from "@/lib/audit";
import { configureAudit } from "@/lib/audit/config";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { makeSandbox, trustClaudeWorkspace, type Sandbox } from "@/test/support/stores";
import * as impactRoute from "@/app/api/v1/entries/impact/route";
import * as healthRoute from "@/app/api/health/route";
import { resetHeavyWork } from "@/lib/work/heavy-work";
import { listWorkspaceEntries } from "./list-workspace-entries";
import { entryImpact, ruleUsage } from "./impact";

const LOCAL = "cpc_entries-impact-credential";
let opened: OpenedDb;
let sb: Sandbox;
let keyDir: string;
const saved = { home: process.env.HOME, managed: process.env.COCKPIT_MANAGED_SETTINGS };
const OWNER = { kind: "local", role: "owner", name: "local-cli" } as const;

beforeAll(async () => {
  sb = makeSandbox("entries-impact-");
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "impact-key-"));
  configureAudit({ keyDir });
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values({ id: "w", path: sb.workspace, name: "project" });
  sb.write(".claude/settings.json", '{ "permissions": { "allow": ["Bash(npm test:*)", "Bash(git log:*)"] } }\n');
  trustClaudeWorkspace(sb.home, sb.workspace);
  const decided = (command: string, rule = "Bash(npm test:*)") =>
    opened.db.transaction((tx) =>
      recordAudit(tx, {
        type: "card.coalesced",
        actor: { type: "agent", label: "agent:cc" },
        workspaceId: "w",
        outcome: "allow",
        decisionSource: "config",
        rule,
        store: sb.abs(".claude/settings.json"),
        agent: "claude-code",
        agentSessionId: "s1",
        cwd: sb.workspace,
        tool: "Bash",
        input: { command },
        detail: { mode: "default" },
      }),
    );
  await decided("npm test");
  await decided("npm test --watch");
  await decided("git log --oneline", "Bash(git log:*)");
});
afterAll(async () => {
  process.env.HOME = saved.home;
  if (saved.managed === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = saved.managed;
  configureAudit({ keyDir: undefined });
  await opened.close();
  sb.cleanup();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

const impact = async (body: unknown, bearer: string | null = LOCAL) => {
  const res = await impactRoute.POST(
    new NextRequest("http://localhost:3000/api/v1/entries/impact", {
      method: "POST",
      headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) } as never,
  );
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("POST /api/v1/entries/impact", () => {
  it("replays the calls the entry decided: revoke and narrow show which would now ask", async () => {
    const listing = await listWorkspaceEntries({ db: opened.db, actor: OWNER, input: { workspace: "w" } as never });
    const npm = listing.entries.find((e) => e.rule === "Bash(npm test:*)")!;
    expect(npm.usage).toMatchObject({ count: 2, lastUsed: expect.any(String) });
    expect(listing.entries.find((e) => e.rule === "Bash(git log:*)")!.usage).toMatchObject({ count: 1 });

    expect([401, 403]).toContain((await impact({ workspace: "w", id: npm.id }, null)).status);
    const revoke = await impact({ workspace: "w", id: npm.id });
    expect(revoke.status).toBe(200);
    expect(revoke.body.replayed).toBe(2);
    expect(revoke.body.changed).toHaveLength(2);
    expect(revoke.body.changed[0]).toMatchObject({
      event: { type: "card.coalesced", tool: "Bash", input: { command: "npm test --watch" } },
      before: { decision: "allow", rule: "Bash(npm test:*)" },
      after: { decision: "ask" },
    });

    const narrow = await impact({ workspace: "w", id: npm.id, to: "Bash(npm test)" });
    expect(narrow.body.replayed).toBe(2);
    expect(narrow.body.changed.map((c: { event: { input: { command: string } } }) => c.event.input.command)).toEqual([
      "npm test --watch",
    ]);
    expect((await impact({ workspace: "w", id: npm.id, to: "Bash(" })).status).toBe(400);
    // A stricter action: every replayed call now asks.
    expect((await impact({ workspace: "w", id: npm.id, to: "ask" })).body.changed).toHaveLength(2);
    expect((await impact({ workspace: "w", id: "nope" })).status).toBe(404);
  });

  it("counts usage with one aggregate, ignoring edits of the entry", async () => {
    await opened.db.transaction((tx) =>
      recordAudit(tx, {
        type: "entry.narrowed",
        actor: { type: "local", label: "local-cli" },
        workspaceId: "w",
        rule: "Bash(git log:*)",
      }),
    );
    const usage = await ruleUsage(opened.db, "w", ["Bash(git log:*)", "Bash(unused)"]);
    expect(usage.get("Bash(git log:*)")).toMatchObject({ count: 1 });
    expect(usage.has("Bash(unused)")).toBe(false);
  });
});

describe("a large impact preview does not hold the server", () => {
  let id: string;
  beforeAll(async () => {
    resetHeavyWork();
    sb.write(".claude/settings.json", '{ "permissions": { "allow": ["Bash(make:*)"] } }\n');
    // Agent-seeded calls the entry decided: many more than a batch.
    await opened.db.transaction((tx) =>
      recordAuditBatch(
        tx,
        Array.from({ length: 120 }, (_, i) => ({
          type: "card.coalesced" as const,
          actor: { type: "agent" as const, label: "agent:cc" },
          workspaceId: "w",
          outcome: "allow" as const,
          decisionSource: "config" as const,
          rule: "Bash(make:*)",
          store: sb.abs(".claude/settings.json"),
          agent: "claude-code",
          agentSessionId: "s1",
          cwd: sb.workspace,
          tool: "Bash",
          input: { command: `make target-${i}` },
          detail: { mode: "default" },
        })),
      ),
    );
    const listing = await listWorkspaceEntries({ db: opened.db, actor: OWNER, input: { workspace: "w" } as never });
    id = listing.entries.find((e) => e.rule === "Bash(make:*)")!.id;
  });

  it("stops at its work budget and says so", async () => {
    const result = await entryImpact({
      db: opened.db,
      actor: OWNER,
      input: { workspace: "w", id },
      budget: { units: 30, ms: 60_000 },
    });
    expect(result).toMatchObject({ replayed: 30, truncated: true });
    expect(result.note).toMatch(/^truncated after 30 calls \(work budget: 30 calls/);
    expect(result.changed).toHaveLength(30);
    // Within the budget, nothing is truncated.
    const whole = await entryImpact({ db: opened.db, actor: OWNER, input: { workspace: "w", id } });
    expect(whole).toMatchObject({ replayed: 120, truncated: false, note: null });
  });

  it("/api/health answers while the preview is still replaying", async () => {
    let previewDone = false;
    let health: Promise<{ status: number; beforePreview: boolean }> | null = null;
    const preview = entryImpact({
      db: opened.db,
      actor: OWNER,
      input: { workspace: "w", id },
      // At the first yield the replay is under way: a health check sent now must not wait for it.
      onYield: () => {
        health ??= healthRoute
          .GET(new NextRequest("http://localhost:3000/api/health"), { params: Promise.resolve({}) } as never)
          .then((res) => ({ status: res.status, beforePreview: !previewDone }));
      },
    }).then((r) => {
      previewDone = true;
      return r;
    });
    const result = await preview;
    expect(result.replayed).toBe(120);
    expect(health).not.toBeNull();
    expect(await health!).toEqual({ status: 200, beforePreview: true });
  });

  it("each person gets a few previews a minute (429 with Retry-After)", async () => {
    resetHeavyWork();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 31; i++) {
      const res = await impactRoute.POST(
        new NextRequest("http://localhost:3000/api/v1/entries/impact", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${LOCAL}` },
          body: JSON.stringify({ workspace: "w", id: "nope" }),
        }),
        { params: Promise.resolve({}) } as never,
      );
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    resetHeavyWork();
  });
});

describe("impact preview for every agent, through the registry (the agent's own edit, its own engine)", () => {
  const logged = (agent: string, tool: string, rule: string, store: string, inputs: Record<string, unknown>[]) =>
    opened.db.transaction((tx) =>
      recordAuditBatch(
        tx,
        inputs.map((input) => ({
          type: "agent.decision" as const,
          actor: { type: "agent" as const, label: `agent:${agent}` },
          workspaceId: "w",
          outcome: "allow" as const,
          decisionSource: "config" as const,
          rule,
          store,
          agent,
          agentSessionId: `s-${agent}`,
          cwd: sb.workspace,
          tool,
          input,
          detail: {},
        })),
      ),
    );
  const entryOf = async (agent: string, test: (rule: string) => boolean) => {
    const listing = await listWorkspaceEntries({ db: opened.db, actor: OWNER, input: { workspace: "w" } as never });
    return listing.entries.find((e) => e.agent === agent && test(e.rule))!;
  };

  it("a Codex rule: revoking a forbidden prefix and narrowing an allowed one show the calls that change", async () => {
    const rules = path.join(sb.home, ".codex", "rules", "default.rules");
    fs.mkdirSync(path.dirname(rules), { recursive: true });
    const text =
      '# mine\nprefix_rule(pattern=["git", "push"], decision="forbidden")\nprefix_rule(pattern=["npm"], decision="allow")\n';
    fs.writeFileSync(rules, text);
    // "untrusted": a command no rule allows asks (Codex's approvals matrix), so a narrower allow shows its effect.
    fs.writeFileSync(path.join(sb.home, ".codex", "config.toml"), 'approval_policy = "untrusted"\n');
    const push = await entryOf("codex", (r) => r.includes('"push"'));
    const npm = await entryOf("codex", (r) => r.includes('["npm"]'));
    await logged("codex", "shell", push.rule, rules, [{ command: ["git", "push", "origin", "main"] }]);
    await logged("codex", "shell", npm.rule, rules, [{ command: ["npm", "test"] }, { command: ["npm", "publish"] }]);

    const revoke = await entryImpact({ db: opened.db, actor: OWNER, input: { workspace: "w", id: push.id } });
    expect(revoke).toMatchObject({ replayed: 1, truncated: false });
    expect(revoke.changed).toHaveLength(1);
    expect(revoke.changed[0]).toMatchObject({
      event: { agent: "codex", input: { command: ["git", "push", "origin", "main"] } },
      before: { decision: "deny", rule: push.rule },
    });
    expect(revoke.changed[0]!.after.decision).not.toBe("deny");
    const narrow = await entryImpact({
      db: opened.db,
      actor: OWNER,
      input: { workspace: "w", id: npm.id, to: 'prefix_rule(pattern=["npm", "test"], decision="allow")' },
    });
    expect(narrow.replayed).toBe(2);
    expect(narrow.changed.map((c) => [c.event.input, c.before.decision, c.after.decision])).toEqual([
      [{ command: ["npm", "publish"] }, "allow", "ask"],
    ]);
    // Codex's own proof refuses a wider rule: the preview says so (422), as the save would.
    await expect(
      entryImpact({
        db: opened.db,
        actor: OWNER,
        input: { workspace: "w", id: npm.id, to: 'prefix_rule(pattern=["np"], decision="allow")' },
      }),
    ).rejects.toMatchObject({ status: 422 });
    // Nothing was written: the preview's edit stayed in memory.
    expect(fs.readFileSync(rules, "utf8")).toBe(text);
  });

  it("a Gemini rule: narrowing its commandPrefix and revoking it show the calls that would now ask", async () => {
    const file = path.join(sb.home, ".gemini", "policies", "mine.toml");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const text =
      '# mine\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "npm"\ndecision = "allow"\npriority = 100\n';
    fs.writeFileSync(file, text);
    const npm = await entryOf("gemini", (r) => r.includes('commandPrefix = "npm"'));
    await logged("gemini", "run_shell_command", npm.rule, file, [{ command: "npm test" }, { command: "npm publish" }]);
    const revoke = await entryImpact({ db: opened.db, actor: OWNER, input: { workspace: "w", id: npm.id } });
    expect(revoke.changed.map((c) => [c.event.input, c.before.decision, c.after.decision]).sort()).toEqual([
      [{ command: "npm publish" }, "allow", "ask"],
      [{ command: "npm test" }, "allow", "ask"],
    ]);
    expect(revoke.changed[0]!.before.rule).toBe(npm.rule);
    const narrow = await entryImpact({
      db: opened.db,
      actor: OWNER,
      input: {
        workspace: "w",
        id: npm.id,
        to: 'toolName = "run_shell_command", commandPrefix = "npm test", decision = "allow", priority = 100',
      },
    });
    expect(narrow.changed.map((c) => [c.event.input, c.before.decision, c.after.decision])).toEqual([
      [{ command: "npm publish" }, "allow", "ask"],
    ]);
    // Nothing was written: the preview's edits stayed in memory.
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  });
});
