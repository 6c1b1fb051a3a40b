// Audit log at scale: p50/p95 of a filtered first page, a free-text search and a CSV export over
// BENCH_N (default 1,000,000) events, plus the ingest rate through recordAuditBatch / recordAudit.
// Run: npx tsx --conditions=react-server bench/audit/run.ts            (embedded PGlite in a temp folder)
//      DATABASE_URL=postgres://… npx tsx --conditions=react-server bench/audit/run.ts   (PGlite, then PostgreSQL — that database is wiped
//      first — one after the other, printed side by side)
// Env: BENCH_N (events to generate), BENCH_REPS (query repetitions, default 30), BENCH_DB=embedded|postgres (only
// that one).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDb, type Db } from "@/db/client";
import { recordAudit, recordAuditBatch, type AuditEvent } from "@/lib/audit";
import { configureAudit } from "@/lib/audit/config";
import { AuditPageQuery, exportAuditStream, listAuditEvents } from "@/lib/audit/query";
import { catchUpAuditSearch, indexAuditSearch } from "@/lib/audit/search-index";

const N = Number(process.env.BENCH_N ?? 1_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 30);
const OWNER = { kind: "local", role: "owner", name: "local-cli" } as const;
type Kind = "embedded" | "postgres";
const url = process.env.DATABASE_URL;
let kind: Kind = "embedded";

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const log = (m: string) => process.stderr.write(`[${kind}] ${m}\n`);
const rows = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;

async function reset(): Promise<void> {
  if (kind !== "postgres" || !url) return;
  const { Pool } = await import("pg");
  const pool = new Pool({ connectionString: url });
  await pool.query("drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public");
  await pool.end();
}

/** Bulk rows in SQL (generate_series), indexes dropped first and rebuilt after: the fast way to 1M rows. */
async function generate(db: Db): Promise<void> {
  const defs = rows(
    await db.execute(
      sql`select indexname, indexdef from pg_indexes where tablename in ('audit_events', 'audit_search') and indexname not like '%_pkey'`,
    ),
  ) as { indexname: string; indexdef: string }[];
  for (const d of defs) await db.execute(sql.raw(`drop index "${d.indexname}"`));
  const chunk = 100_000;
  const t0 = Date.now();
  for (let start = 1; start <= N; start += chunk) {
    const end = Math.min(N, start + chunk - 1);
    await db.execute(sql`
      insert into audit_events (seq, at, workspace_id, actor, actor_type, actor_channel, action, target, outcome,
        decision_source, rule, store, agent, agent_session_id, tool_use_id, cwd, tool, input, detail, prev_hash, hash)
      select g,
        now() - interval '30 days' + (g::float8 / ${N}) * interval '30 days',
        'w' || (g % 5),
        (array['alice','bob','agent:ci','local-cli'])[1 + g % 4],
        (array['user','user','agent','local'])[1 + g % 4],
        (array['web','ntfy','agent','cli'])[1 + g % 4],
        (array['card.coalesced','card.coalesced','card.coalesced','card.coalesced','card.coalesced',
               'card.resolved','card.resolved','agent.post_tool_use','agent.post_tool_use','entry.added'])[1 + g % 10],
        'card-' || g,
        (array['allow','allow','allow','allow','allow','allow','allow','deny','deny','ask'])[1 + (g / 7) % 10],
        (array['config','config','config','user_temporary','user_permanent','user_reject'])[1 + (g / 3) % 6],
        'Bash(npm run task-' || (g % 50) || ':*)',
        '/home/dev/project-' || (g % 5) || '/.claude/settings.json',
        (array['claude-code','claude-code','commandcode','mevedel'])[1 + (g / 11) % 4],
        's' || (g % 2000),
        'toolu_' || g,
        '/home/dev/project-' || (g % 5),
        (array['Bash','Bash','Read','Edit','Write','WebFetch'])[1 + (g / 13) % 6],
        jsonb_build_object('command', 'npm run task-' || (g % 5000) || case when g % 997 = 0 then ' && rm -rf build' else '' end),
        jsonb_build_object('step', 'allow-rule', 'mode', 'default'),
        'bench', 'bench'
      from generate_series(${start}::bigint, ${end}::bigint) g`);
    log(`generated ${end} rows (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  // The search index's rows, as the background worker writes them (here in large statements, index dropped).
  const t1 = Date.now();
  while ((await indexAuditSearch(db, 100_000)) > 0);
  log(`search text written in ${((Date.now() - t1) / 1000).toFixed(0)} s`);
  for (const d of defs) await db.execute(sql.raw(d.indexdef));
  await db.execute(sql`analyze audit_events`);
  await db.execute(sql`analyze audit_search`);
  log(`indexes rebuilt in ${((Date.now() - t1) / 1000).toFixed(0)} s`);
}

async function timed(reps: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return { p50: pct(xs, 50), p95: pct(xs, 95) };
}

const event = (i: number): AuditEvent => ({
  type: "agent.decision",
  actor: { type: "agent", label: "agent:bench", channel: "agent" },
  workspaceId: `w${i % 5}`,
  outcome: i % 5 ? "allow" : "deny",
  decisionSource: "config",
  rule: `Bash(npm run task-${i % 50}:*)`,
  store: "/home/dev/project/.claude/settings.json",
  agent: "codex",
  agentSessionId: `bench-${i % 20}`,
  tool: "Bash",
  input: { command: `npm run task-${i} --verbose` },
  detail: { reason: "allowed by rule" },
});

async function measure(): Promise<Record<string, string>> {
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-audit-"));
  configureAudit({ keyDir });
  await reset();
  const opened =
    kind === "postgres" && url
      ? await openDb({ kind: "postgres", url })
      : await openDb({ kind: "embedded", dataDir: path.join(keyDir, "pgdata") });
  const db = opened.db;
  const results: Record<string, string> = {};
  try {
    await generate(db);
    const page = (q: Record<string, string>) => () => listAuditEvents(db, OWNER, AuditPageQuery.parse(q));
    const show = (name: string, r: { p50: number; p95: number }) => {
      results[name] = `p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`;
      log(`${name}: ${results[name]}`);
    };
    show("page, unfiltered", await timed(REPS, page({})));
    show("page, workspace + outcome=deny", await timed(REPS, page({ workspace: "w2", outcome: "deny" })));
    show("page, tool + agent session", await timed(REPS, page({ tool: "Bash", agentSession: "s17" })));
    show("page, type=card.* + source=user_reject", await timed(REPS, page({ type: "card.*", source: "user_reject" })));
    show(
      "page, workspace + last 24 h",
      await timed(REPS, page({ workspace: "w3", from: new Date(Date.now() - 86400_000).toISOString() })),
    );
    show("search q='rm -rf build' (0.1%)", await timed(REPS, page({ q: "rm -rf build" })));
    show("search q='task-4242 ' (rare)", await timed(REPS, page({ q: "npm run task-4242" })));
    show("search q + workspace", await timed(REPS, page({ q: "rm -rf build", workspace: "w1" })));
    show("search q='bash' (a third of rows)", await timed(REPS, page({ q: "bash" })));
    let exported = 0;
    const exportOnce = async () => {
      const stream = await exportAuditStream(db, OWNER, { workspace: "w2", outcome: "deny", tool: "Bash" }, "csv");
      const reader = stream.getReader();
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
      }
      exported = bytes;
    };
    const exp = await timed(Math.max(3, Math.floor(REPS / 6)), exportOnce);
    const lines = Number(
      rows(
        await db.execute(
          sql`select count(*)::int as n from audit_events where workspace_id = 'w2' and outcome = 'deny' and tool = 'Bash'`,
        ),
      )[0]!.n,
    );
    show("CSV export, workspace + deny + Bash", exp);
    results["CSV export, workspace + deny + Bash"] += ` (${lines} rows, ${(exported / 1e6).toFixed(1)} MB)`;

    // Ingest through the writer: the bulk rows carry no real chain, so the writer links onto their head.
    const batches = 20;
    const size = 1000;
    let t = performance.now();
    const cpu0 = process.cpuUsage();
    for (let b = 0; b < batches; b++)
      await db.transaction((tx) =>
        recordAuditBatch(
          tx,
          Array.from({ length: size }, (_, i) => event(b * size + i)),
        ),
      );
    const ingestSeconds = (performance.now() - t) / 1000;
    const batchRate = (batches * size) / ingestSeconds;
    results["ingest, recordAuditBatch (1,000 per transaction)"] = `${Math.round(batchRate)} events/s`;
    log(`ingest batch: ${Math.round(batchRate)} events/s`);
    // On a shared machine the wall rate measures the load; the rate per CPU-second of this process (PGlite runs in
    // it, single-threaded) is what one idle core would do. PostgreSQL's work is in its own processes: not counted.
    if (kind === "embedded") {
      const used = process.cpuUsage(cpu0);
      const cpuRate = (batches * size) / ((used.user + used.system) / 1e6);
      results["ingest, recordAuditBatch, per CPU-second of the process"] = `${Math.round(cpuRate)} events/s`;
      log(`ingest batch: ${Math.round(cpuRate)} events per CPU-second`);
    }
    // What the background worker then does for those events (search indexing, off the insert path).
    t = performance.now();
    const indexed = await catchUpAuditSearch(db);
    const indexSeconds = (performance.now() - t) / 1000;
    results["search indexing by the background worker, 1,000 per statement"] =
      `${Math.round(indexed / indexSeconds)} events/s`;
    results["ingest and indexing together (sustained)"] =
      `${Math.round((batches * size) / (ingestSeconds + indexSeconds))} events/s`;
    t = performance.now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 2000; i++) await recordAudit(tx, event(i));
    });
    const singleRate = 2000 / ((performance.now() - t) / 1000);
    results["ingest, recordAudit x 2,000 in one transaction"] = `${Math.round(singleRate)} events/s`;
    t = performance.now();
    for (let i = 0; i < 300; i++) await db.transaction((tx) => recordAudit(tx, event(i)));
    results["ingest, recordAudit, one transaction each"] =
      `${Math.round(300 / ((performance.now() - t) / 1000))} events/s`;
  } finally {
    await opened.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  }
  return results;
}

async function main() {
  const only = process.env.BENCH_DB as Kind | undefined;
  const kinds: Kind[] = (url ? (["embedded", "postgres"] as const) : (["embedded"] as const)).filter(
    (k) => !only || k === only,
  );
  const results: Partial<Record<Kind, Record<string, string>>> = {};
  // One after the other, never at once: each has the machine to itself.
  for (const k of kinds) {
    kind = k;
    results[k] = await measure();
  }
  const names = { embedded: "PGlite (embedded)", postgres: "PostgreSQL" };
  console.log(`\n## ${N.toLocaleString("en-US")} events\n`);
  console.log(`| measure | ${kinds.map((k) => names[k]).join(" | ")} |\n|---|${kinds.map(() => "---|").join("")}`);
  for (const measure of Object.keys(results[kinds[0]!]!))
    console.log(`| ${measure} | ${kinds.map((k) => results[k]![measure] ?? "—").join(" | ")} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
