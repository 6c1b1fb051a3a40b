import { promises as fsp, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { admitCard } from "@/lib/cards/admit-card";
import { settleCard } from "@/lib/cards/settle-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

// Admission decides against a snapshot whose stores come from a cache keyed by each file's version
// (stat: dev, ino, size, mtime, ctime). This counts the store reader's opens (`fs.promises.open`,
// which lib/stores/read-store.ts uses for every store read) to prove unchanged files are not read.
let f: CardFixture;
let managed: string;
const opened: string[] = [];
const rules = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `Bash(${prefix}${i}:*)`);

beforeAll(async () => {
  f = await cardFixture();
  managed = path.join(f.home, "..", "managed.json");
  writeFileSync(managed, JSON.stringify({ permissions: { deny: rules("managed", 50) } }));
  f.write(".claude/settings.json", JSON.stringify({ permissions: { allow: rules("shared", 50) } }));
  f.write(".claude/settings.local.json", JSON.stringify({ permissions: { allow: rules("local", 50) } }));
  const orig = fsp.open.bind(fsp);
  vi.spyOn(fsp, "open").mockImplementation(((file: Parameters<typeof fsp.open>[0], ...rest: unknown[]) => {
    if (String(file).startsWith(path.dirname(f.home))) opened.push(String(file));
    return (orig as (...a: unknown[]) => ReturnType<typeof fsp.open>)(file, ...rest);
  }) as typeof fsp.open);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await f.cleanup();
});

const env = () => ({ home: f.home, managedSettingsPath: managed, now: f.env.now });
const admit = (command: string, session = "sess-reads") =>
  admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input: bash(command, session), env: env() });

describe("admission reads", () => {
  it("reads each store once, then no file whose version is unchanged", async () => {
    opened.length = 0;
    await admit("make build");
    // The workspace's two files and the managed file exist; ~/.claude/settings.json is missing (stat only).
    expect(new Set(opened).size).toBe(3);

    opened.length = 0;
    for (let i = 0; i < 10; i++) await admit(`make target${i}`);
    expect(opened).toEqual([]);
  });

  it("re-reads exactly the store that changed", async () => {
    f.write(".claude/settings.local.json", JSON.stringify({ permissions: { allow: ["Bash(make deploy)"] } }));
    opened.length = 0;
    const result = await admit("make deploy");
    expect(result).toMatchObject({ status: "coalesced", decision: { decision: "allow", rule: "Bash(make deploy)" } });
    expect(opened).toEqual([path.join(f.workspace, ".claude/settings.local.json")]);
  });

  it("an answer re-checks policy without reading unchanged stores", async () => {
    const card = await admit("make release", "sess-answer");
    if (card.status !== "pending") throw new Error("expected a card");
    opened.length = 0;
    await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: card.id,
      input: { outcome: "allow", remember: "once", hash: card.hash },
      client: "web",
      env: env(),
    });
    expect(opened).toEqual([]);
  });
});
