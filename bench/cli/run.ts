// Start-up cost of the `cockpit` command, side by side in one run: `node -e 0` (the floor), `cockpit hook
// claude-code` with a PreToolUse payload (cockpit unreachable; and reachable: a stub that answers like the
// audit route), `cockpit decide` one call, each from the prebuilt bundle and from the TypeScript sources
// (tsx, COCKPIT_CLI_SOURCE=1: what every run cost before the bundle). Runs are interleaved round-robin so
// load on a shared machine hits every row alike. Run: npx tsx bench/cli/run.ts
// Env: BENCH_RUNS (default 20), BENCH_SOURCE=0 to skip the source rows.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "cockpit.mjs");
const TARGETS: Record<string, number> = { hook: 150, decide: 400 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

interface Case {
  name: string;
  /** Which target applies: its median is compared with node -e 0's. */
  kind?: "hook" | "decide";
  args: string[];
  env?: Record<string, string>;
  stdin?: string;
  /** Checks the output, so a broken command is not timed as a fast one. */
  check: (stdout: string, code: number | null) => boolean;
}

// GNU time reports the child's CPU seconds (user + system): on a shared machine wall time mostly measures the
// wait for a core, CPU time the work itself. Without it only wall time is printed.
const GNU_TIME = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const CPU_MARK = "::cpu";

/**
 * Wall time of one process from spawn to exit, stdin written and closed as an agent does, and its CPU time
 * (NaN without GNU time).
 */
function timeOnce(c: Case): Promise<{ wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const [cmd, args] = GNU_TIME
      ? [GNU_TIME, ["-f", `${CPU_MARK} %U %S`, process.execPath, ...c.args]]
      : [process.execPath, c.args];
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, ...c.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const wall = performance.now() - t;
      const mark = err.match(new RegExp(`${CPU_MARK} ([\\d.]+) ([\\d.]+)\\s*$`));
      if (mark) err = err.slice(0, mark.index);
      const cpu = mark ? (Number(mark[1]) + Number(mark[2])) * 1000 : NaN;
      if (!c.check(out, code)) reject(new Error(`${c.name}: unexpected result (exit ${code}): ${out}${err}`));
      else resolve({ wall, cpu });
    });
    child.stdin.end(c.stdin ?? "");
  });
}

async function main() {
  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-cli.mjs"), "--if-stale"], {
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("could not bundle the CLI");

  // A stub cockpit: answers the hook route with {} at once, so "reachable" measures the process, not the server.
  let hits = 0;
  const stub = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => stub.listen(0, "127.0.0.1", r));
  const stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  // A port nobody listens on: connection refused, as when the cockpit is stopped.
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const closedUrl = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
  await new Promise<void>((r) => closed.close(() => r()));

  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-bench-cli-"));
  const home = path.join(workspace, "home");
  fs.mkdirSync(path.join(workspace, ".claude"), { recursive: true });
  fs.mkdirSync(home);
  fs.writeFileSync(
    path.join(workspace, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(npm run test:*)"], deny: ["Bash(curl *)"] } }),
  );
  const payload = JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: "bench-session",
    cwd: workspace,
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command: "npm run test -- --ci", description: "Run the tests" },
    tool_use_id: "toolu_bench",
  });
  const quiet = (out: string, code: number | null) => code === 0 && out === "";
  const decided = (out: string, code: number | null) => code === 0 && JSON.parse(out).decision === "deny";
  const hookCase = (name: string, url: string, source: boolean): Case => ({
    name,
    kind: source ? undefined : "hook",
    args: [BIN, "hook", "claude-code"],
    env: { COCKPIT_TOKEN: "cpa_bench", COCKPIT_URL: url, ...(source ? { COCKPIT_CLI_SOURCE: "1" } : {}) },
    stdin: payload,
    check: quiet,
  });
  const decideCase = (name: string, source: boolean): Case => ({
    name,
    kind: source ? undefined : "decide",
    args: [
      BIN,
      "decide",
      "--workspace",
      workspace,
      "--agent",
      "claude-code",
      "--call",
      '{"tool":"Bash","input":{"command":"npm test && curl -s https://example.com"}}',
    ],
    env: { HOME: home, COCKPIT_MANAGED_SETTINGS: "", ...(source ? { COCKPIT_CLI_SOURCE: "1" } : {}) },
    check: decided,
  });
  const withSource = process.env.BENCH_SOURCE !== "0";
  const cases: Case[] = [
    { name: "node -e 0", args: ["-e", "0"], check: (_o, code) => code === 0 },
    hookCase("hook claude-code PreToolUse, cockpit unreachable", closedUrl, false),
    hookCase("hook claude-code PreToolUse, cockpit answers", stubUrl, false),
    decideCase("decide, one call", false),
    ...(withSource
      ? [
          hookCase("hook, unreachable, from source (tsx)", closedUrl, true),
          decideCase("decide, from source (tsx)", true),
        ]
      : []),
  ];

  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const cpus = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (const c of cases) await timeOnce(c); // warm the file cache
  for (let i = 0; i < RUNS; i++)
    for (const c of cases) {
      const { wall, cpu } = await timeOnce(c);
      times.get(c.name)!.push(wall);
      cpus.get(c.name)!.push(cpu);
    }
  if (hits < RUNS) throw new Error(`the stub saw ${hits} hook requests, expected at least ${RUNS}`);

  // An HTTP hook instead: Claude Code itself posts the payload; the cost is this one request.
  const requests: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const res = await fetch(`${stubUrl}/api/agent/v1/hooks/claude-code`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer cpa_bench" },
      body: payload,
    });
    await res.text();
    requests.push(performance.now() - t);
  }
  stub.close();
  fs.rmSync(workspace, { recursive: true, force: true });

  const floor = median(times.get("node -e 0")!);
  const cpuFloor = median(cpus.get("node -e 0")!);
  const seconds = (ms: number, digits = 3) => (Number.isNaN(ms) ? "—" : `${(ms / 1000).toFixed(digits)} s`);
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(
    `\n## cockpit CLI start-up (median of ${RUNS}, interleaved; load average ${load} on ${os.cpus().length} cores)\n`,
  );
  console.log(
    "| command | median | p90 | over node -e 0 | CPU median | CPU over node -e 0 | target | wall / CPU |\n|---|---|---|---|---|---|---|---|",
  );
  const verdict = (over: number, target: number | undefined) =>
    target === undefined || Number.isNaN(over) ? "" : over <= target ? "ok" : "MISSED";
  for (const c of cases) {
    const xs = times.get(c.name)!;
    const m = median(xs);
    const cpu = median(cpus.get(c.name)!);
    const floorRow = c.name === "node -e 0";
    const target = c.kind ? TARGETS[c.kind]! : undefined;
    console.log(
      `| ${c.name} | ${seconds(m)} | ${seconds(pct(xs, 90))} | ${floorRow ? "—" : `+${seconds(m - floor)}`} | ${seconds(cpu)} | ${floorRow ? "—" : `+${seconds(cpu - cpuFloor)}`} | ${target === undefined ? "" : `+${(target / 1000).toFixed(2)} s`} | ${target === undefined ? "" : `${verdict(m - floor, target)} / ${verdict(cpu - cpuFloor, target)}`} |`,
    );
  }
  console.log(
    `| http hook: one local request (no process) | ${seconds(median(requests), 4)} | ${seconds(pct(requests, 90), 4)} | | | | | |`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
