#!/usr/bin/env node
// `npm test`: every suite CI runs, each reported; exits non-zero if any failed.
// Suites that share no port, database or build folder run at the same time: most of them spend much of
// their time waiting (a browser, a server, a database, timers), so two cores go further together than in turn.
// Each suite's output is printed whole when it ends, so parallel logs never interleave.
// `node scripts/test-all.mjs unit e2e` runs only those suites; TEST_SERIAL=1 runs them one after another.
import { spawn } from "node:child_process";

/**
 * name, command, arguments; `before`: a command run first (a build); `after`: starts once that suite has
 * finished (it shares what that one uses); `db`: the one suite that gets DATABASE_URL.
 */
const suites = [
  { name: "format", cmd: "npx", args: ["prettier", "--check", "."] },
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
  },
  { name: "type-check", cmd: "npx", args: ["tsc", "--noEmit"] },
  { name: "unit", cmd: "npx", args: ["vitest", "run"] },
  // Only the Postgres suite talks to DATABASE_URL; the e2e server keeps its own embedded database.
  { name: "postgres", cmd: "npx", args: ["vitest", "run", "--config", "vitest.pg.config.ts"], db: true },
  // The build first, apart from Playwright's server start-up timeout (it takes minutes while other suites run).
  { name: "e2e", cmd: "npx", args: ["playwright", "test"], before: ["npx", ["next", "build"]] },
];

const only = process.argv.slice(2);
const unknown = only.filter((n) => !suites.some((s) => s.name === n));
if (unknown.length) {
  process.stderr.write(`unknown suite ${unknown.join(", ")} (${suites.map((s) => s.name).join(", ")})\n`);
  process.exit(2);
}
const chosen = suites.filter((s) => !only.length || only.includes(s.name));
const serial = process.env.TEST_SERIAL === "1";
const started = Date.now();
const seconds = (since) => Math.round((Date.now() - since) / 1000);

/** Runs one command, collecting its output; resolves with whether it exited 0. */
function exec(cmd, args, env, chunks) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d) => chunks.push(d));
    child.stderr.on("data", (d) => chunks.push(d));
    child.on("error", (error) => {
      chunks.push(Buffer.from(`could not start ${cmd}: ${error.message}\n`));
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0));
  });
}

async function run(suite) {
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", FORCE_COLOR: process.env.FORCE_COLOR ?? "0" };
  if (!suite.db) delete env.DATABASE_URL;
  const t = Date.now();
  const steps = [...(suite.before ? [suite.before] : []), [suite.cmd, suite.args]];
  const commands = steps.map(([c, a]) => `${c} ${a.join(" ")}`).join(" && ");
  process.stdout.write(`=== ${suite.name} started (${commands}) at +${seconds(started)} s\n`);
  const chunks = [];
  let ok = true;
  for (const [cmd, args] of steps) if (ok) ok = await exec(cmd, args, env, chunks);
  const output = Buffer.concat(chunks).toString("utf8");
  const result = { name: suite.name, ok, seconds: seconds(t) };
  const tail = output.endsWith("\n") ? "" : "\n";
  process.stdout.write(`\n=== ${suite.name}: ${ok ? "ok" : "FAILED"} in ${result.seconds} s\n${output}${tail}`);
  return result;
}

const results = [];
if (serial) {
  for (const suite of chosen) results.push(await run(suite));
} else {
  const done = new Map();
  const start = (suite) => {
    const waitFor = suite.after && chosen.some((s) => s.name === suite.after) ? done.get(suite.after) : undefined;
    const p = (waitFor ?? Promise.resolve()).then(() => run(suite));
    done.set(suite.name, p);
    return p;
  };
  results.push(...(await Promise.all(chosen.map(start))));
}

process.stdout.write(`\n=== summary (${seconds(started)} s in all${serial ? ", one suite at a time" : ""})\n`);
for (const r of results) process.stdout.write(`${r.ok ? "ok  " : "FAIL"}  ${r.name} (${r.seconds} s)\n`);
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`suites: ${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
