// Admission → first delivery attempt, per endpoint, with three endpoints of which one answers after 2 s.
// In process: the real admitCard, the real outbox worker (bus wake-up + 500 ms poll) and three local
// HTTP receivers; the first attempt is the moment the receiver sees the request.
// Two runs in one process: a baseline with three fast receivers, then one of them made slow.
// Pass condition: the fast endpoints' p95 with a slow neighbour is within 100 ms of the baseline.
// Run: npx tsx --conditions=react-server bench/notify/run.ts   (BENCH_N cards per run, default 200)
import { openDb } from "@/db/client";
import { createEndpoint } from "@/lib/notify/endpoints";
import { ADMIN, notifyFixture, startReceiver, type Receiver } from "@/test/support/notify";
import { startNotifyWorker } from "@/lib/notify/worker";

const N = Number(process.env.BENCH_N ?? 200);
const SLOW_MS = 2000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

async function runOnce(label: string, slowFirst: boolean) {
  const opened = await openDb({ kind: "embedded" });
  const f = await notifyFixture({ opened });
  const receivers: Receiver[] = [];
  for (let i = 0; i < 3; i++)
    receivers.push(await startReceiver(() => ({ status: 200, delayMs: slowFirst && i === 0 ? SLOW_MS : 0 })));
  for (const r of receivers) await createEndpoint({ db: opened.db, actor: ADMIN, input: { url: r.url }, env: f.env });
  const worker = startNotifyWorker({ db: opened.db, env: { ...f.env, timeoutMs: 10_000 }, pollMs: 500 });
  const admittedAt = new Map<string, number>();
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const id = await f.admit(`rm -rf build-${i}`, `bench-${i % 7}`);
    admittedAt.set(id, t);
    // Spread admissions a little, like agents do; some arrive in bursts.
    if (i % 10 !== 0) await new Promise((r) => setTimeout(r, 5));
  }
  const deadline = Date.now() + 60_000;
  while (receivers.some((r) => r.requests.length < N) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const wall = performance.now() - started;
  const rows = receivers.map((r, i) => {
    const lat = r.requests.map((q) => q.at - admittedAt.get(JSON.parse(q.body).data.card.id)!);
    return {
      endpoint: `${i === 0 && slowFirst ? "slow (2 s)" : "fast"} #${i + 1}`,
      received: r.requests.length,
      p50: pct(lat, 50),
      p95: pct(lat, 95),
      max: Math.max(...lat),
    };
  });
  await worker.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await f.cleanup();
  await opened.close();
  console.log(`\n${label}: ${N} cards × 3 endpoints, ${(wall / 1000).toFixed(1)} s wall`);
  console.log("endpoint        received   p50 ms   p95 ms   max ms");
  for (const r of rows)
    console.log(
      `${r.endpoint.padEnd(15)} ${String(r.received).padStart(8)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.max.toFixed(1).padStart(8)}`,
    );
  return rows;
}

async function main() {
  const base = await runOnce("baseline (three fast receivers)", false);
  const mixed = await runOnce("one receiver answers after 2 s", true);
  const fastBase = Math.max(...base.slice(1).map((r) => r.p95));
  const fastMixed = Math.max(...mixed.slice(1).map((r) => r.p95));
  const delta = fastMixed - fastBase;
  const lost = mixed.reduce((n, r) => n + (N - r.received), 0) + base.reduce((n, r) => n + (N - r.received), 0);
  console.log(
    `\nfast endpoints' p95: baseline ${fastBase.toFixed(1)} ms, with a slow neighbour ${fastMixed.toFixed(1)} ms → delay ${delta.toFixed(1)} ms (limit 100 ms); lost ${lost}`,
  );
  console.log(delta <= 100 && lost === 0 ? "PASS" : "FAIL");
  process.exit(delta <= 100 && lost === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
