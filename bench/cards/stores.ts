// Card round trip in process (admit → answer allow once), with empty stores vs five stores of 1,000
// rules each, side by side in one run (interleaved, same database). The five stores are the four
// Claude Code files (workspace settings.json and settings.local.json, ~/.claude/settings.json, managed
// settings) plus 1,000 session entries of the card's session (the database "store").
// Run: npx tsx --conditions=react-server bench/cards/stores.ts   Env: BENCH_N (default 300 round trips per side).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { sessionEntries, workspaces } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { admitCard } from "@/lib/cards/admit-card";
import { settleCard } from "@/lib/cards/settle-card";

const N = Number(process.env.BENCH_N ?? 300);
const RULES = 1_000;
const OWNER: Actor = {
  kind: "user",
  userId: "u1",
  name: "alice",
  owner: true,
  grants: [],
  sessionId: "s",
  signIn: "link",
  device: null,
  channel: "web",
};
const TEMPLATES: [string, "allow" | "ask" | "deny"][] = [
  ["Bash(npm run task{i}:*)", "allow"],
  ["Bash(tool{i} *)", "ask"],
  ["Edit(src/mod{i}/**)", "allow"],
  ["Read(secrets{i}/**)", "deny"],
  ["mcp__server{i}__*", "allow"],
  ["Bash(git push --force{i}*)", "deny"],
  ["Edit(/gen/{i}/*.ts)", "allow"],
  ["WebFetch(domain:host{i}.example.com)", "allow"],
];
function settings(offset: number) {
  const permissions: Record<string, string[]> = { allow: [], ask: [], deny: [] };
  for (let i = 0; i < RULES; i++) {
    const [tpl, action] = TEMPLATES[i % TEMPLATES.length]!;
    permissions[action]!.push(tpl.replace("{i}", String(offset + i)));
  }
  return JSON.stringify({ permissions }, null, 2);
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function main() {
  const root = mkdtempSync(path.join(os.tmpdir(), "cockpit-bench-stores-"));
  const opened = await openDb({ kind: "embedded" });
  try {
    const sides = [] as { label: string; id: string; env: Record<string, unknown>; samples: number[] }[];
    for (const [label, full] of [
      ["empty stores", false],
      ["5 stores × 1,000 rules", true],
    ] as const) {
      const dir = path.join(root, full ? "full" : "empty");
      const ws = path.join(dir, "project");
      const home = path.join(dir, "home");
      mkdirSync(path.join(ws, ".claude"), { recursive: true });
      mkdirSync(path.join(home, ".claude"), { recursive: true });
      const managed = path.join(dir, "managed-settings.json");
      const id = crypto.randomUUID();
      await opened.db.insert(workspaces).values({ id, path: ws, name: label });
      if (full) {
        const withSession = process.env.BENCH_SESSION !== "0";
        writeFileSync(path.join(ws, ".claude/settings.json"), settings(0));
        writeFileSync(path.join(ws, ".claude/settings.local.json"), settings(RULES));
        writeFileSync(path.join(home, ".claude/settings.json"), settings(2 * RULES));
        writeFileSync(managed, settings(3 * RULES));
        const rows = Array.from({ length: RULES }, (_, i) => ({
          id: crypto.randomUUID(),
          workspaceId: id,
          agentSessionId: "bench",
          agent: "claude-code",
          action: "allow",
          rule: `Bash(npm run session${i}:*)`,
          createdBy: "bench",
        }));
        if (withSession)
          for (let i = 0; i < rows.length; i += 250)
            await opened.db.insert(sessionEntries).values(rows.slice(i, i + 250));
      }
      sides.push({ label, id, env: { home, managedSettingsPath: full ? managed : null }, samples: [] });
    }
    const agentOf = (workspaceId: string): Actor => ({
      kind: "agent",
      tokenId: `t-${workspaceId}`,
      workspaceId,
      name: "bench",
    });
    const limits = { maxPending: 1_000_000, perMinute: 1_000_000, burst: 1_000_000 };
    const roundTrip = async (side: (typeof sides)[number], i: number) => {
      const t0 = performance.now();
      const admitted = await admitCard({
        db: opened.db,
        actor: agentOf(side.id),
        workspaceId: side.id,
        input: { agent: "claude-code", sessionId: "bench", tool: "Bash", input: { command: `make target${i}` } },
        env: side.env,
        limits,
      });
      if (admitted.status !== "pending") throw new Error(`expected a card, got ${admitted.status}`);
      await settleCard({
        db: opened.db,
        actor: OWNER,
        cardId: admitted.id,
        input: { outcome: "allow", remember: "once", hash: admitted.hash },
        client: "web",
        env: side.env,
      });
      return performance.now() - t0;
    };
    for (let i = 0; i < 20; i++) for (const side of sides) await roundTrip(side, -i - 1); // warm-up
    for (let i = 0; i < N; i++) for (const side of sides) side.samples.push(await roundTrip(side, i));
    const [empty, full] = sides as [(typeof sides)[0], (typeof sides)[0]];
    console.log(`card round trip (admit → answer allow once), ${N} per side, interleaved, embedded PGlite`);
    console.log("| stores | p50 | p99 |");
    console.log("|---|---|---|");
    for (const side of sides)
      console.log(
        `| ${side.label} | ${pct(side.samples, 50).toFixed(2)} ms | ${pct(side.samples, 99).toFixed(2)} ms |`,
      );
    console.log(
      `| ratio | ${(pct(full.samples, 50) / pct(empty.samples, 50)).toFixed(2)}× | ${(pct(full.samples, 99) / pct(empty.samples, 99)).toFixed(2)}× (target ≤ 1.2×) |`,
    );
  } finally {
    await opened.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
