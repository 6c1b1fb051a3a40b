#!/usr/bin/env node
// `npm test`: every suite CI runs, each reported; exits non-zero if any failed.
// Suites that share no port, database or build folder run at the same time: most of them spend much of
// their time waiting (a browser, a server, a database, timers), so two cores go further together than in turn.
// Each suite's output is printed whole when it ends, so parallel logs never interleave.
// `node scripts/test-all.mjs unit e2e` runs only those suites; TEST_SERIAL=1 runs them one after another.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";

/**
 * name, command, arguments; `needs`: suites that must have finished first (a build), run even when not asked for;
 * `after`: starts once that suite has finished, if it runs (it shares what that one uses); `db`: the one suite that
 * gets DATABASE_URL; `when`: the suite runs only if this is true; `nice`: it yields the CPU to the others (checks
 * with no timers to miss; the build the browser suites wait for comes first).
 */
const suites = [
  { name: "format", cmd: "npx", args: ["prettier", "--check", "."], nice: true },
  // No circular imports; lib/policy imports no I/O (rules in .dependency-cruiser.cjs).
  {
    name: "imports",
    cmd: "npx",
    args: [
      "depcruise",
      "--output-type",
      "err",
      "lib",
      "app",
      "components",
      "db",
      "bin",
      "scripts",
      "bench",
      "instrumentation.ts",
    ],
    after: "format",
    nice: true,
  },
  { name: "type-check", cmd: "npx", args: ["tsc", "--noEmit"], nice: true },
  { name: "unit", cmd: "npx", args: ["vitest", "run"] },
  // Only the Postgres suite talks to DATABASE_URL; the e2e server keeps its own embedded database.
  {
    name: "postgres",
    cmd: "npx",
    args: ["vitest", "run", "--config", "vitest.pg.config.ts"],
    db: true,
    nice: true,
  },
  // The production build the browser suites run against, apart from Playwright's server start-up timeout.
  { name: "build", cmd: "npx", args: ["next", "build"] },
  // scripts/e2e.mjs runs the desktop and the phone project at once, each against its own server.
  { name: "e2e", cmd: "node", args: ["scripts/e2e.mjs"], needs: ["build"] },
  // The mevedel bridge's ERT tests (Debian's emacs-nox) against a real cockpit on a free port of its own.
  { name: "emacs", cmd: "node", args: ["integrations/mevedel/test/run.mjs"], needs: ["build"] },
  // docs/deploy.md proved with two OS users (creates them: root only; .ci/run sets COCKPIT_DEPLOY_CHECK=1).
  {
    name: "deploy",
    cmd: "bash",
    args: ["scripts/deploy-check.sh"],
    needs: ["build"],
    when: process.env.COCKPIT_DEPLOY_CHECK === "1",
  },
];

const only = process.argv.slice(2);
const unknown = only.filter((n) => !suites.some((s) => s.name === n));
if (unknown.length) {
  process.stderr.write(`unknown suite ${unknown.join(", ")} (${suites.map((s) => s.name).join(", ")})\n`);
  process.exit(2);
}
const asked = suites.filter((s) => (only.length ? only.includes(s.name) : s.when !== false));
const needed = new Set(asked.flatMap((s) => [s.name, ...(s.needs ?? [])]));
const chosen = suites.filter((s) => needed.has(s.name));
const serial = process.env.TEST_SERIAL === "1";
const started = Date.now();

/**
 * CPU-seconds the whole machine spent busy so far (Linux /proc/stat), or null. Bash's `time` misses what a suite's
 * grandchildren use after their parent is gone (Chromium's renderers), so the summary also prints this: on an
 * otherwise quiet machine it is what `npm test` cost.
 */
function machineBusy() {
  try {
    const [user, nice, system, , , irq, softirq] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user + nice + system + irq + softirq) / 100;
  } catch {
    return null;
  }
}
const busyAtStart = machineBusy();
const seconds = (since) => Math.round((Date.now() - since) / 1000);

const CPU_MARK = "::test-all-cpu";

/**
 * Runs one command, collecting its output; resolves with whether it exited 0 and the CPU seconds it and its
 * children used (bash's `time`): on a shared machine wall time says little, CPU time says what a suite costs.
 */
function exec(cmd, args, env, chunks, nice) {
  return new Promise((resolve) => {
    const script = `TIMEFORMAT="${CPU_MARK} %U %S"; time ${nice ? "nice -n 5 " : ""}"$@"`;
    const child = spawn("bash", ["-c", script, "bash", cmd, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let cpu = 0;
    child.stdout.on("data", (d) => chunks.push(d));
    child.stderr.on("data", (d) => {
      const text = d.toString("utf8");
      const mark = text.match(new RegExp(`${CPU_MARK} ([\\d.]+) ([\\d.]+)`));
      if (mark) cpu += Number(mark[1]) + Number(mark[2]);
      chunks.push(mark ? Buffer.from(text.replace(mark[0], "").replace(/^\n$/, "")) : d);
    });
    child.on("error", (error) => {
      chunks.push(Buffer.from(`could not start ${cmd}: ${error.message}\n`));
      resolve({ ok: false, cpu });
    });
    child.on("close", (code) => resolve({ ok: code === 0, cpu }));
  });
}

async function run(suite) {
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", FORCE_COLOR: process.env.FORCE_COLOR ?? "0" };
  if (!suite.db) delete env.DATABASE_URL;
  const t = Date.now();
  process.stdout.write(`=== ${suite.name} started (${suite.cmd} ${suite.args.join(" ")}) at +${seconds(started)} s\n`);
  const chunks = [];
  const { ok, cpu } = await exec(suite.cmd, suite.args, env, chunks, suite.nice);
  const output = Buffer.concat(chunks).toString("utf8");
  const result = { name: suite.name, ok, seconds: seconds(t), cpu: Math.round(cpu), output };
  const tail = output.endsWith("\n") ? "" : "\n";
  const head = `${ok ? "ok" : "FAILED"} in ${result.seconds} s (CPU ${result.cpu} s)`;
  process.stdout.write(`\n=== ${suite.name}: ${head}\n${output}${tail}`);
  return result;
}

/** Runs the suite unless a suite it needs failed (then it fails at once, saying which). */
async function runUnlessBlocked(suite, before) {
  const failed = before.find((r) => suite.needs?.includes(r.name) && !r.ok);
  if (!failed) return run(suite);
  const output = `not run: ${failed.name} failed\n`;
  process.stdout.write(`\n=== ${suite.name}: FAILED (${output.trim()})\n`);
  return { name: suite.name, ok: false, seconds: 0, cpu: 0, output };
}

const results = [];
if (serial) {
  for (const suite of chosen) results.push(await runUnlessBlocked(suite, results));
} else {
  const done = new Map();
  const start = (suite) => {
    const first = [...(suite.needs ?? []), ...(suite.after ? [suite.after] : [])].filter((n) => done.has(n));
    const p = Promise.all(first.map((n) => done.get(n))).then((before) => runUnlessBlocked(suite, before));
    done.set(suite.name, p);
    return p;
  };
  // Suites start in the list's order, so one a later one needs is registered first.
  results.push(...(await Promise.all(chosen.map(start))));
}

const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
const cores = availableParallelism();
const busy = busyAtStart === null ? null : Math.round(machineBusy() - busyAtStart);
process.stdout.write(
  `\n=== summary: ${seconds(started)} s in all${serial ? ", one suite at a time" : ""}; CPU ${cpu} s on ${cores} cores${
    busy === null ? "" : ` (the machine was busy ${busy} CPU-s)`
  } (load average now ${loadavg()[0].toFixed(1)})\n`,
);
for (const r of results)
  process.stdout.write(`${r.ok ? "ok  " : "FAIL"}  ${r.name} (${r.seconds} s, CPU ${r.cpu} s)\n`);
const failed = results.filter((r) => !r.ok).length;
// CI keeps only the end of the log: the lines that say what failed are repeated here, after everything else.
for (const r of results.filter((x) => !x.ok)) process.stdout.write(`\n=== why ${r.name} failed\n${digest(r.output)}\n`);
process.stdout.write(`suites: ${results.length - failed} passed, ${failed} failed\n`);

/**
 * The failure lines of one suite's output: Playwright's numbered failures and ✘ lines, vitest's FAIL and
 * AssertionError lines, error messages and the source line they point at; at most 80 lines.
 */
function digest(output) {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const keep = new Set();
  const failure =
    /✘|^\s*\d+\) \[|FAIL |Error:|Error |expect\(|Expected|Received|Timeout|timed out|^\s*>\s*\d+ \||^\s*at .*\.(spec|test)\.ts/;
  lines.forEach((line, i) => {
    if (failure.test(line)) keep.add(i);
  });
  const picked = [...keep].sort((a, b) => a - b).map((i) => lines[i].slice(0, 240));
  if (!picked.length) return lines.slice(-40).join("\n");
  return picked.slice(0, 80).join("\n") + (picked.length > 80 ? `\n… ${picked.length - 80} more lines above` : "");
}
process.exit(failed ? 1 : 0);
