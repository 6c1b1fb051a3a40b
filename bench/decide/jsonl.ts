// `cockpit decide --jsonl` over 10,000 Claude Code calls with 1,000 rules in its settings files: calls/s of the
// real process (stdin → stdout, one start), the per-call round trip when a caller waits for each answer, and the
// in-process cost per call (p50/p99, including the version check of every store), against one process per call.
// Run: npx tsx bench/decide/jsonl.ts  [--calls N] [--rules N]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Decider } from "../../lib/cli/decide-one";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/cockpit.mjs");

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const CALLS = arg("calls", 10_000);
const RULES = arg("rules", 1_000);

const TEMPLATES: [string, "allow" | "ask" | "deny"][] = [
  ["Bash(npm run task{i} *)", "allow"],
  ["Bash(tool{i} *)", "ask"],
  ["Edit(src/mod{i}/**)", "allow"],
  ["Read(secrets{i}/**)", "deny"],
  ["mcp__server{i}__*", "allow"],
  ["Bash(git push --force{i}*)", "deny"],
  ["Edit(/gen/{i}/*.ts)", "allow"],
  ["WebFetch(domain:host{i}.example.com)", "allow"],
];

/** 1,000 rules split between the user's and the project's settings, as a real setup accumulates them. */
function writeStores(workspace: string, home: string): void {
  const files = [
    { allow: [] as string[], ask: [] as string[], deny: [] as string[] },
    { allow: [] as string[], ask: [] as string[], deny: [] as string[] },
  ];
  for (let i = 0; i < RULES; i++) {
    const [tpl, action] = TEMPLATES[i % TEMPLATES.length]!;
    files[i % 2]![action].push(tpl.replace("{i}", String(i)));
  }
  mkdirSync(path.join(workspace, ".claude"), { recursive: true });
  mkdirSync(path.join(home, ".claude"), { recursive: true });
  writeFileSync(path.join(workspace, ".claude/settings.json"), JSON.stringify({ permissions: files[0] }, null, 2));
  writeFileSync(path.join(home, ".claude/settings.json"), JSON.stringify({ permissions: files[1] }, null, 2));
}

function makeCalls(workspace: string): string[] {
  const shapes = [
    (i: number) => ({ tool: "Bash", input: { command: `npm run task${i % RULES} -- --watch=false && git status` } }),
    (i: number) => ({ tool: "Bash", input: { command: `FOO=${i} make build | tee build.log` } }),
    (i: number) => ({ tool: "Bash", input: { command: `git push --force${i % RULES} origin main` } }),
    (i: number) => ({ tool: "Bash", input: { command: `cat README.md | head -${i % 50} || echo none` } }),
    (i: number) => ({ tool: "Edit", input: { file_path: path.join(workspace, `src/mod${i % RULES}/a.ts`) } }),
    (i: number) => ({ tool: "Read", input: { file_path: path.join(workspace, `secrets${i % RULES}/key.txt`) } }),
    (i: number) => ({ tool: "WebFetch", input: { url: `https://host${i % RULES}.example.com/x`, prompt: "p" } }),
    (i: number) => ({ tool: `mcp__server${i % RULES}__query`, input: { q: String(i) } }),
  ];
  return Array.from({ length: CALLS }, (_, i) =>
    JSON.stringify({ agent: "claude-code", mode: i % 5 === 0 ? "acceptEdits" : undefined, call: shapes[i % 8]!(i) }),
  );
}

const env = (home: string) => ({ ...process.env, HOME: home, COCKPIT_MANAGED_SETTINGS: "" });
const pct = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** The real process, all lines at once: wall time, and the time from the first answer to the last. */
function throughput(workspace: string, home: string, lines: string[]) {
  return new Promise<{ wallMs: number; firstMs: number; steadyMs: number; outLines: number; decisions: string }>(
    (resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(process.execPath, [BIN, "decide", "--jsonl", "--workspace", workspace], {
        env: env(home),
        stdio: ["pipe", "pipe", "inherit"],
      });
      let first = 0;
      let outLines = 0;
      const counts: Record<string, number> = {};
      createInterface({ input: child.stdout }).on("line", (l) => {
        if (!first) first = performance.now();
        outLines++;
        const d = (JSON.parse(l) as { decision?: string }).decision ?? "error";
        counts[d] = (counts[d] ?? 0) + 1;
      });
      child.on("error", reject);
      child.on("close", () => {
        const end = performance.now();
        resolve({
          wallMs: end - t0,
          firstMs: first - t0,
          steadyMs: end - first,
          outLines,
          decisions: Object.entries(counts)
            .map(([k, v]) => `${k} ${v}`)
            .join(", "),
        });
      });
      child.stdin.end(lines.join("\n") + "\n");
    },
  );
}

/** The real process, one line at a time: each call waits for its answer before the next is sent. */
function roundTrips(workspace: string, home: string, lines: string[], n: number) {
  return new Promise<Float64Array>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "decide", "--jsonl", "--workspace", workspace], {
      env: env(home),
      stdio: ["pipe", "pipe", "inherit"],
    });
    const warm = 50;
    const samples = new Float64Array(n);
    let i = 0;
    let sent = 0;
    const send = () => {
      sent = performance.now();
      child.stdin.write(lines[i % lines.length] + "\n");
    };
    createInterface({ input: child.stdout }).on("line", () => {
      if (i >= warm) samples[i - warm] = performance.now() - sent;
      i++;
      if (i < n + warm) send();
      else child.stdin.end();
    });
    child.on("error", reject);
    child.on("close", () => resolve(samples.sort()));
    send();
  });
}

/** `Decider` without the process: per-call cost with the stores' versions checked every call, or once per batch. */
async function inProcess(workspace: string, home: string, lines: string[], checkEveryCall: boolean) {
  const decider = new Decider({ workspace, home, managedSettingsPath: null }, async () => []);
  const parsed = lines.map((l) => JSON.parse(l) as Parameters<Decider["decide"]>[0]);
  for (const l of parsed.slice(0, 200)) await decider.decide(l);
  const samples = new Float64Array(parsed.length);
  const t0 = performance.now();
  for (let i = 0; i < parsed.length; i++) {
    const s = performance.now();
    if (checkEveryCall) decider.checkStores();
    await decider.decide(parsed[i]!);
    samples[i] = performance.now() - s;
  }
  return { totalMs: performance.now() - t0, samples: samples.sort() };
}

async function main() {
  const root = mkdtempSync(path.join(os.tmpdir(), "bench-jsonl-"));
  const workspace = path.join(root, "project");
  const home = path.join(root, "home");
  try {
    writeStores(workspace, home);
    const lines = makeCalls(workspace);
    console.log(
      `decide --jsonl: ${CALLS.toLocaleString("en-US")} Claude Code calls, ${RULES} rules in two settings files\n`,
    );

    const t = await throughput(workspace, home, lines);
    if (t.outLines !== CALLS) throw new Error(`expected ${CALLS} answers, got ${t.outLines}`);
    const rt = await roundTrips(workspace, home, lines, 2_000);
    const ip = await inProcess(workspace, home, lines, false);
    const ipc = await inProcess(workspace, home, lines, true);

    const single: number[] = [];
    for (const l of lines.slice(0, 5)) {
      const { call, agent } = JSON.parse(l) as { call: unknown; agent: string };
      const s = performance.now();
      const r = spawnSync(
        process.execPath,
        [BIN, "decide", "--workspace", workspace, "--agent", agent, "--call", JSON.stringify(call)],
        {
          env: env(home),
          encoding: "utf8",
        },
      );
      if (r.status !== 0) throw new Error(r.stderr);
      single.push(performance.now() - s);
    }
    const perProcess = single.reduce((a, b) => a + b, 0) / single.length;

    const f = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
    const rows = [
      [
        "process, all lines piped",
        `${Math.round(CALLS / (t.wallMs / 1000)).toLocaleString("en-US")} calls/s`,
        `wall ${(t.wallMs / 1000).toFixed(2)} s (start + first answer ${(t.firstMs / 1000).toFixed(2)} s)`,
      ],
      [
        "  after the first answer",
        `${Math.round(CALLS / (t.steadyMs / 1000)).toLocaleString("en-US")} calls/s`,
        `${(t.steadyMs / 1000).toFixed(2)} s for ${CALLS.toLocaleString("en-US")} lines`,
      ],
      [
        "process, one line at a time",
        `p50 ${f(pct(rt, 0.5))}`,
        `p99 ${f(pct(rt, 0.99))} round trip per call (2,000 calls)`,
      ],
      [
        "in process, stat every call",
        `p50 ${f(pct(ipc.samples, 0.5))}`,
        `p99 ${f(pct(ipc.samples, 0.99))} per call; ${Math.round(CALLS / (ipc.totalMs / 1000)).toLocaleString("en-US")} calls/s`,
      ],
      [
        "in process, stat per batch",
        `p50 ${f(pct(ip.samples, 0.5))}`,
        `p99 ${f(pct(ip.samples, 0.99))} per call; ${Math.round(CALLS / (ip.totalMs / 1000)).toLocaleString("en-US")} calls/s`,
      ],
      ["one process per call", `${f(perProcess)} per call`, `mean of 5 \`decide --call\` runs`],
    ];
    const w0 = Math.max(...rows.map((r) => r[0]!.length));
    const w1 = Math.max(...rows.map((r) => r[1]!.length));
    for (const r of rows) console.log(`${r[0]!.padEnd(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]}`);
    console.log(`\ndecisions: ${t.decisions}`);
    console.log(
      `--jsonl vs one process per call: ${(perProcess / (t.wallMs / CALLS)).toFixed(0)}× faster per call over ${CALLS.toLocaleString("en-US")} calls`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
