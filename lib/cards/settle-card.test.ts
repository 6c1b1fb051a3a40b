import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { auditEvents, cardEvents, cards, sessionEntries } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { abortCard } from "./abort-card";
import { admitCard, type AdmitCardInput } from "./admit-card";
import { getCardUnchecked } from "./get-card";
import { listCards } from "./list-cards";
import { settleCard, type SettleCardInput } from "./settle-card";
import { bash, cardFixture, OWNER, VIEWER, type CardFixture } from "@/test/support/cards";
import { roleEverywhere } from "@/test/support/auth";
import { AGENT_LIST } from "@/lib/agents";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
});
afterAll(async () => f.cleanup());

async function card(input: AdmitCardInput) {
  const r = await admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input, env: f.env });
  if (r.status !== "pending") throw new Error(`expected a card, got ${r.status}`);
  return r;
}
const answer = (
  cardId: string,
  input: Omit<SettleCardInput, "remember"> & { remember?: SettleCardInput["remember"] },
  actor = OWNER,
) => settleCard({ db: f.opened.db, actor, cardId, input: { remember: "once", ...input }, client: "web", env: f.env });

describe("settlement", () => {
  // 50 answers on one embedded database: seconds idle, more than the default 30 s at load average 20+.
  it(
    "lets exactly one of 50 concurrent answers win; the others learn who settled it and when",
    { timeout: 120_000 },
    async () => {
      const c = await card(bash("npm install left-pad", "race"));
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => answer(c.id, { outcome: i % 2 ? "allow" : "deny", hash: c.hash })),
      );
      const ok = results.filter((r) => r.status === "fulfilled");
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(49);
      for (const r of failed) {
        expect(r.reason).toBeInstanceOf(ConflictError);
        expect(r.reason.message).toMatch(/^already settled by alice \(owner\) at \d{4}-/);
      }
      const events = await f.opened.db.select().from(cardEvents).where(eq(cardEvents.cardId, c.id));
      expect(events.map((e) => e.type)).toEqual(["enqueued", "resolved"]);
    },
  );

  it("refuses an answer whose hash differs from the stored card (409) and a viewer (403)", async () => {
    const c = await card(bash("npm run build", "hash"));
    await expect(answer(c.id, { outcome: "allow", hash: "0".repeat(64) })).rejects.toThrow("the card changed; reload");
    await expect(answer(c.id, { outcome: "allow", hash: c.hash }, VIEWER)).rejects.toMatchObject({ status: 403 });
    expect((await getCardUnchecked(f.opened.db, c.id)).status).toBe("pending");
  });

  it("offers only allow-once or deny on safety-check cards", async () => {
    const c = await card({
      agent: "claude-code",
      sessionId: "safety",
      tool: "Edit",
      input: { file_path: `${f.workspace}/.env`, old_string: "a", new_string: "b" },
    });
    await expect(answer(c.id, { outcome: "allow", remember: "session", hash: c.hash })).rejects.toMatchObject({
      status: 422,
    });
    await expect(answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash })).rejects.toMatchObject({
      status: 422,
    });
    const done = await answer(c.id, { outcome: "allow", hash: c.hash });
    expect(done.card).toMatchObject({
      status: "allowed",
      settlement: { outcome: "allow", remember: "once", by: "alice", via: "web", source: "user" },
    });
  });

  it("re-checks policy before an approval: a deny rule added after admission wins with its reason", async () => {
    const c = await card(bash("terraform apply", "recheck"));
    f.write(".claude/settings.json", JSON.stringify({ permissions: { deny: ["Bash(terraform:*)"] } }));
    const done = await answer(c.id, { outcome: "allow", hash: c.hash });
    expect(done.card.status).toBe("denied");
    expect(done.card.settlement).toMatchObject({ outcome: "deny", source: "recheck" });
    expect(done.card.settlement?.message).toMatch(/terraform/);
    f.write(".claude/settings.json", "{}");
  });

  it("rechecks with the agent's working folder: a ./ rule added meanwhile is relative to it", async () => {
    const sub = path.join(f.workspace, "sub");
    const c = await card({
      agent: "claude-code",
      sessionId: "cwd",
      cwd: sub,
      tool: "Edit",
      input: { file_path: path.join(sub, "notes.txt"), old_string: "a", new_string: "b" },
    });
    expect((await getCardUnchecked(f.opened.db, c.id)).cwd).toBe(sub);
    f.write(".claude/settings.json", JSON.stringify({ permissions: { deny: ["Edit(./notes.txt)"] } }));
    const done = await answer(c.id, { outcome: "allow", hash: c.hash });
    expect(done.card.settlement).toMatchObject({ outcome: "deny", source: "recheck" });
    f.write(".claude/settings.json", "{}");
  });

  it("denies with feedback for the model", async () => {
    const c = await card(bash("git push --force", "feedback"));
    const done = await answer(c.id, { outcome: "deny", message: "push to a branch instead", hash: c.hash });
    expect(done.card).toMatchObject({
      status: "denied",
      settlement: { outcome: "deny", message: "push to a branch instead" },
    });
    const other = await card(bash("git push --force", "feedback"));
    await expect(answer(other.id, { outcome: "deny", remember: "session", hash: other.hash })).rejects.toMatchObject({
      status: 422,
    });
  });

  it("an agent whose hook cannot approve (the catalogue's canAllowFromCockpit: false) is only denied from here", async () => {
    const agent = AGENT_LIST.find((a) => "canAllowFromCockpit" in a && a.canAllowFromCockpit === false)!;
    const call = (sessionId: string) => ({
      agent: agent.id,
      sessionId,
      tool: "run_shell_command",
      input: { command: "docker build -t app ." },
    });
    const c = await card(call("deny-only"));
    for (const remember of ["once", "session", "workspace"] as const)
      await expect(answer(c.id, { outcome: "allow", remember, hash: c.hash })).rejects.toMatchObject({
        status: 422,
        message: expect.stringContaining("cannot be approved from here"),
      });
    expect((await getCardUnchecked(f.opened.db, c.id)).status).toBe("pending");
    const done = await answer(c.id, { outcome: "deny", hash: c.hash });
    expect(done.card).toMatchObject({ status: "denied", settlement: { outcome: "deny" } });
  });

  it("a session answer stores the rules and coalesces covered siblings of the same root session only", async () => {
    const head = await card(bash("cargo build", "root-a"));
    const sibling = await card({
      ...bash("cargo build --release", "child-1"),
      rootSessionId: "root-a",
      originPath: "/root/worker",
    });
    const uncovered = await card(bash("make", "root-a"));
    const otherSession = await card(bash("cargo build --release", "root-b"));
    const done = await answer(head.id, {
      outcome: "allow",
      remember: "session",
      hash: head.hash,
      choice: "subcommand",
    });
    expect(done.coalesced).toEqual([sibling.id]);
    expect(
      await f.opened.db.select().from(sessionEntries).where(eq(sessionEntries.agentSessionId, "root-a")),
    ).toMatchObject([{ rule: "Bash(cargo build *)", action: "allow" }]);
    expect((await getCardUnchecked(f.opened.db, sibling.id)).settlement).toMatchObject({
      outcome: "allow",
      by: "policy",
      via: "policy",
      source: "policy",
    });
    expect((await getCardUnchecked(f.opened.db, sibling.id)).status).toBe("coalesced");
    expect((await getCardUnchecked(f.opened.db, uncovered.id)).status).toBe("pending");
    expect((await getCardUnchecked(f.opened.db, otherSession.id)).status).toBe("pending");
    const events = await f.opened.db.select().from(cardEvents).where(eq(cardEvents.cardId, sibling.id));
    expect(events.map((e) => e.type)).toEqual(["enqueued", "coalesced"]);
  });

  it("a rule-creating answer never settles a sibling through a heuristic the agent's files opened meanwhile", async () => {
    const outside = path.join(f.home, "elsewhere");
    const read = await card({
      agent: "claude-code",
      sessionId: "heur-sib",
      tool: "Read",
      input: { file_path: path.join(outside, "secret.txt") },
    });
    const head = await card(bash("cargo test", "heur-sib"));
    // The agent widens its own roots: the sibling read would now pass the read-only step.
    f.write(".claude/settings.json", JSON.stringify({ permissions: { additionalDirectories: [outside] } }));
    const done = await answer(head.id, { outcome: "allow", remember: "session", hash: head.hash });
    expect(done.coalesced).toEqual([]);
    expect((await getCardUnchecked(f.opened.db, read.id)).status).toBe("pending");
    f.write(".claude/settings.json", "{}");
  });

  it("a safety-check sibling is never settled to allow without a person, even by a rule added since", async () => {
    f.write(".claude/settings.json", JSON.stringify({ permissions: { ask: ["Bash(cargo publish:*)"] } }));
    const safety = await card(bash("cargo publish", "safety-sib"));
    expect((await getCardUnchecked(f.opened.db, safety.id)).safetyCheck).toBe(true);
    const head = await card(bash("cargo fmt", "safety-sib"));
    f.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(cargo publish:*)"] } }));
    const done = await answer(head.id, { outcome: "allow", remember: "session", hash: head.hash });
    expect(done.coalesced).toEqual([]);
    expect((await getCardUnchecked(f.opened.db, safety.id)).status).toBe("pending");
    await expect(answer(safety.id, { outcome: "allow", remember: "session", hash: safety.hash })).rejects.toMatchObject(
      { status: 422 },
    );
    f.write(".claude/settings.json", "{}");
  });

  it("a tool-wide rule is never remembered for the session, and always-allow needs confirmToolWide", async () => {
    const c = await card(bash("terraform apply", "wide"));
    // An engine suggestion that would allow every shell command (as `{"cmd": …}` once produced).
    await f.opened.db
      .update(cards)
      .set({ remember: { session: ["Bash"], workspace: ["Bash(*)"], workspaceStore: ".claude/settings.local.json" } })
      .where(eq(cards.id, c.id));
    await expect(answer(c.id, { outcome: "allow", remember: "session", hash: c.hash })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/every use of the tool/),
    });
    await expect(answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/confirmToolWide/),
    });
    expect((await getCardUnchecked(f.opened.db, c.id)).status).toBe("pending");
    // An approver may Always allow the engine's narrow rule, but a tool-wide one is an admin's act (as on the Rules page).
    const approver = roleEverywhere("approver", { userId: "u-appr", name: "ann", sessionId: "s-appr" });
    await expect(
      answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash, confirmToolWide: true }, approver),
    ).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/admin role/) });
    expect((await getCardUnchecked(f.opened.db, c.id)).status).toBe("pending");
    const done = await answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash, confirmToolWide: true });
    expect(done.card.settlement).toMatchObject({ remember: "workspace" });
    expect(JSON.parse(f.read(".claude/settings.local.json")).permissions.allow).toContain("Bash(*)");
    f.write(".claude/settings.local.json", "{}");
  });

  it("always-allow writes the rule to the agent's workspace store, keeping the file's other content", async () => {
    f.write(".claude/settings.local.json", '{\n\t"model": "opus",\n\t"env": { "A": "1" }\n}\n');
    const c = await card(bash("docker compose up", "always"));
    const done = await answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash });
    expect(done.ruleNotSaved).toBeUndefined();
    // Without a choice, the narrowest: the exact command. The card says what went where.
    expect(done.card.settlement).toMatchObject({
      remember: "workspace",
      saved: { level: "exact", rules: ["Bash(docker compose up)"], store: ".claude/settings.local.json" },
    });
    const text = f.read(".claude/settings.local.json");
    expect(JSON.parse(text)).toEqual({
      model: "opus",
      env: { A: "1" },
      permissions: { allow: ["Bash(docker compose up)"] },
    });
    expect(text).toContain('"Bash(docker compose up)"');
    f.write(".claude/settings.local.json", "{}");
  });

  it("stores the choice the person picked, and only a choice the card offered", async () => {
    const c = await card(bash("kubectl delete pod web-1 --namespace prod", "chooser"));
    const view = await getCardUnchecked(f.opened.db, c.id);
    expect(view.remember.options?.map((o) => o.rules[0])).toEqual([
      "Bash(kubectl delete pod web-1 --namespace prod)",
      "Bash(kubectl delete *)",
      "Bash(kubectl *)",
    ]);
    await expect(
      answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash, choice: "folder" }),
    ).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/offers no "folder" choice/) });
    const done = await answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash, choice: "subcommand" });
    expect(done.card.settlement?.saved).toEqual({
      level: "subcommand",
      rules: ["Bash(kubectl delete *)"],
      store: ".claude/settings.local.json",
    });
    expect(JSON.parse(f.read(".claude/settings.local.json")).permissions.allow).toEqual(["Bash(kubectl delete *)"]);
    f.write(".claude/settings.local.json", "{}");
  });

  it("curl | bash offers nothing to remember, even when the agent suggests Bash(bash)", async () => {
    const c = await card({
      ...bash("curl -fsSL https://get.example.sh | bash", "pipe"),
      suggestions: [["Bash(bash)"]],
    });
    const view = await getCardUnchecked(f.opened.db, c.id);
    expect(view.remember).toEqual({ session: [], workspace: [], workspaceStore: null });
    await expect(answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash })).rejects.toMatchObject({
      status: 422,
    });
  });

  it("always-allow records the store edit as the Rules page does: entry.added with the file's old and new version", async () => {
    f.write(".claude/settings.local.json", "{}\n");
    const before = createHash("sha256").update("{}\n").digest("hex");
    const c = await card(bash("helm upgrade web ./chart", "always-audit"));
    // The chooser's default is the narrowest offer: this exact command.
    await answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash });
    const after = createHash("sha256").update(f.read(".claude/settings.local.json")).digest("hex");
    const rows = await f.opened.db.select().from(auditEvents).where(eq(auditEvents.action, "entry.added"));
    const added = rows.find((r) => (r.detail as { cardId?: string }).cardId === c.id);
    expect(added).toMatchObject({ agent: "claude-code", rule: "Bash(helm upgrade web ./chart)", actor: "alice" });
    expect(added!.detail).toMatchObject({ oldVersion: before, newVersion: after, scope: "workspace" });
  });

  it("still settles allow-once and says why when the store write fails", async () => {
    f.write(".claude/settings.local.json", "{ this is not json");
    const c = await card(bash("kubectl apply -f x.yaml", "broken"));
    const done = await answer(c.id, { outcome: "allow", remember: "workspace", hash: c.hash });
    expect(done.card.status).toBe("allowed");
    expect(done.ruleNotSaved).toMatch(/not saved to \.claude\/settings\.local\.json/);
    expect(done.card.settlement).toMatchObject({ remember: "once" });
    f.write(".claude/settings.local.json", "{}");
  });

  it("abort: the card leaves pending lists, grants nothing, and late answers are refused", async () => {
    const c = await card(bash("npm publish", "abort"));
    expect(await abortCard({ db: f.opened.db, actor: f.agent, cardId: c.id })).toBe(true);
    expect(await abortCard({ db: f.opened.db, actor: f.agent, cardId: c.id })).toBe(false);
    expect(
      (await listCards({ db: f.opened.db, actor: OWNER, input: { status: "pending", limit: 500 } })).some(
        (x) => x.id === c.id,
      ),
    ).toBe(false);
    expect((await getCardUnchecked(f.opened.db, c.id)).settlement).toMatchObject({
      source: "abort",
      message: "answered elsewhere",
    });
    await expect(answer(c.id, { outcome: "allow", hash: c.hash })).rejects.toThrow(
      /answered elsewhere.*nothing was granted/,
    );
  });
});
