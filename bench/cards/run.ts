// Round-trip overhead of the card queue: admit → visible on an approver's SSE stream → settle →
// the agent's long-poll released, with 200 other cards pending (and long-polled) the whole time,
// against /api/health on the same server in the same run. Run: npx tsx bench/cards/run.ts
// Env: BENCH_PORT (default 3471), COCKPIT_DIST_DIR (default .next-bench; built if stale unless BENCH_NO_BUILD=1), BENCH_N (default 200).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const PORT = Number(process.env.BENCH_PORT ?? 3471);
const N = Number(process.env.BENCH_N ?? 200);
const BACKGROUND = 200;
const base = `http://127.0.0.1:${PORT}`;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-bench-cards-"));
const data = path.join(root, "data");
const workspace = path.join(root, "workspace");
fs.mkdirSync(workspace);
fs.mkdirSync(path.join(root, "home"));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function main() {
  const server = spawn(
    process.execPath,
    ["bin/cockpit.mjs", "start", "--port", String(PORT), ...(process.env.BENCH_NO_BUILD ? ["--no-build"] : [])],
    {
      env: {
        ...process.env,
        COCKPIT_DATA: data,
        HOME: path.join(root, "home"),
        COCKPIT_DIST_DIR: process.env.COCKPIT_DIST_DIR ?? ".next-bench",
        DATABASE_URL: process.env.DATABASE_URL ?? "",
        // One agent token admits every card here: the per-token admission limits would refuse the background load.
        COCKPIT_ADMISSIONS_PER_MINUTE: "100000",
        COCKPIT_ADMISSION_BURST: "100000",
        COCKPIT_MAX_PENDING_PER_TOKEN: "100000",
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      let out = "";
      server.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("Permissions Cockpit is running")) resolve();
      });
      server.on("exit", (code) => reject(new Error(`cockpit exited with ${code}:\n${out}`)));
    });
    const owner = (JSON.parse(fs.readFileSync(path.join(data, "local-credential.json"), "utf8")) as { token: string })
      .token;
    const api = async (method: string, url: string, token: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    await api("POST", "/api/v1/workspaces", owner, { path: workspace, name: "bench" });
    // Answering is a person's act (the local credential is refused): sign the owner in with a login link.
    const link = new URL(String((await api("POST", "/api/local/login-link", owner)).url));
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ token: link.searchParams.get("token") }),
    });
    if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const agent = String((await api("POST", "/api/v1/agent-tokens", owner, { workspace })).token);

    // The approver's event stream: resolves a waiter when its card shows up.
    const seen = new Map<string, () => void>();
    const early = new Set<string>();
    const sse = await fetch(`${base}/api/v1/events`, { headers: { authorization: `Bearer ${owner}` } });
    const reader = sse.body!.getReader();
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = frame.split("\n").find((l) => l.startsWith("data: "));
          if (!data) continue;
          const change = JSON.parse(data.slice(6)) as { type: string; cardId: string };
          if (change.type !== "enqueued") continue;
          const waiter = seen.get(change.cardId);
          if (waiter) waiter();
          else early.add(change.cardId);
        }
      }
    })();
    const visible = (id: string) => (early.delete(id) ? Promise.resolve() : new Promise<void>((r) => seen.set(id, r)));
    const admit = (i: number, session: string) =>
      api("POST", "/api/agent/v1/cards", agent, {
        agent: "claude-code",
        sessionId: session,
        tool: "Bash",
        input: { command: `npm run task-${i}` },
      });

    // Background load: 200 pending cards, each with a waiting long-poll like a real hook.
    const background: Promise<unknown>[] = [];
    for (let i = 0; i < BACKGROUND; i++) {
      const card = await admit(i, `background-${i}`);
      background.push(
        fetch(`${base}/api/agent/v1/cards/${card.id}?wait=300`, {
          headers: { authorization: `Bearer ${agent}` },
        }).catch(() => undefined),
      );
    }
    const health = async () => {
      const t = performance.now();
      await (await fetch(`${base}/api/health`)).json();
      return performance.now() - t;
    };
    const phases = { admit: [] as number[], visible: [] as number[], answer: [] as number[], released: [] as number[] };
    const roundTrip = async (i: number) => {
      const t = performance.now();
      const card = (await admit(10_000 + i, `bench-${i}`)) as { id: string; hash: string };
      const t1 = performance.now();
      const released = fetch(`${base}/api/agent/v1/cards/${card.id}?wait=60`, {
        headers: { authorization: `Bearer ${agent}` },
      }).then((r) => r.json());
      await visible(card.id);
      const t2 = performance.now();
      const answered = await fetch(`${base}/api/v1/cards/${card.id}/answer`, {
        method: "POST",
        headers: { cookie, origin: base, "content-type": "application/json" },
        body: JSON.stringify({ outcome: "allow", remember: "once", hash: card.hash, client: "web" }),
      });
      if (!answered.ok) throw new Error(`answer: ${answered.status} ${await answered.text()}`);
      const t3 = performance.now();
      const outcome = (await released) as { status: string };
      if (outcome.status !== "allowed") throw new Error(`round trip ${i} ended ${outcome.status}`);
      const t4 = performance.now();
      if (i >= 0) {
        phases.admit.push(t1 - t);
        phases.visible.push(t2 - t1);
        phases.answer.push(t3 - t2);
        phases.released.push(t4 - t3);
      }
      return t4 - t;
    };
    // The answer route takes at most 120 answers a minute per person and address (lib/http/throttle.ts): each round
    // trip starts at least 510 ms after the previous one (the pause is not timed).
    const paced = async <T>(work: () => Promise<T>) => {
      const started = performance.now();
      const result = await work();
      const rest = 510 - (performance.now() - started);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      return result;
    };
    for (let i = 0; i < 20; i++) {
      await health();
      await paced(() => roundTrip(-1 - i));
    }
    const trips: number[] = [];
    const echoes: number[] = [];
    // Interleaved so both see the same machine load.
    for (let i = 0; i < N; i++) {
      echoes.push(await health());
      trips.push(await paced(() => roundTrip(i)));
    }
    const pending = ((await api("GET", "/api/v1/cards?status=pending&limit=500", owner)).cards as unknown[]).length;
    const rows = [
      ["card round trip (admit → SSE → answer → long-poll released)", pct(trips, 50), pct(trips, 99)],
      ["/api/health (one request)", pct(echoes, 50), pct(echoes, 99)],
      ["/api/health × 4 (same number of requests as a round trip)", 4 * pct(echoes, 50), 4 * pct(echoes, 99)],
    ] as const;
    console.log(
      `\n${N} round trips, ${pending} other cards pending with open long-polls, database ${process.env.DATABASE_URL ? "postgres" : "embedded (PGlite)"}\n`,
    );
    console.log("| measure | p50 | p99 |\n|---|---|---|");
    for (const [name, p50, p99] of rows) console.log(`| ${name} | ${fmt(p50)} | ${fmt(p99)} |`);
    console.log(
      `\nratio round trip / one health request: p50 ${(pct(trips, 50) / pct(echoes, 50)).toFixed(1)}×, p99 ${(pct(trips, 99) / pct(echoes, 99)).toFixed(1)}×`,
    );
    console.log(
      `overhead over 4 health requests: p50 ${fmt(pct(trips, 50) - 4 * pct(echoes, 50))}, p99 ${fmt(pct(trips, 99) - 4 * pct(echoes, 99))} (target p99 ≤ 25 ms)`,
    );
    console.log(
      `phases p50/p99: ${Object.entries(phases)
        .map(([k, v]) => `${k} ${fmt(pct(v, 50))}/${fmt(pct(v, 99))}`)
        .join(", ")}`,
    );
    await reader.cancel().catch(() => undefined);
    void background;
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
