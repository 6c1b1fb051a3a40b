#!/usr/bin/env node
// `npm test`: every suite CI runs, each reported; exits non-zero if any failed.
// Suites that share no port, database or build folder run at the same time: most of them spend much of
// their time waiting (a browser, a server, a database, timers), so two cores go further together than in turn.
// Each suite's output is printed whole when it ends, so parallel logs never interleave.
// `node scripts/test-all.mjs unit e2e` runs only those suites; TEST_SERIAL=1 runs them one after another.
import { spawn } from "node:child_process";

/** name, command, arguments; `after`: starts once that suite has finished (it shares what that one uses). */
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
  { name: "e2e", cmd: "npx", args: ["playwright", "test"] },
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

function run(suite) {
  return new Promise((resolve) => {
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", FORCE_COLOR: process.env.FORCE_COLOR ?? "0" };
    if (!suite.db) delete env.DATABASE_URL;
    const t = Date.now();
    process.stdout.write(
      `=== ${suite.name} started (${suite.cmd} ${suite.args.join(" ")}) at +${seconds(started)} s\n`,
    );
    const child = spawn(suite.cmd, suite.args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (d) => chunks.push(d));
    child.stderr.on("data", (d) => chunks.push(d));
    const finish = (ok, extra = "") => {
      const output = Buffer.concat(chunks).toString("utf8");
      const result = { name: suite.name, ok, seconds: seconds(t) };
      process.stdout.write(
        `\n=== ${suite.name}: ${ok ? "ok" : "FAILED"} in ${result.seconds} s\n${output}${extra}${output.endsWith("\n") ? "" : "\n"}`,
      );
      resolve(result);
    };
    child.on("error", (error) => finish(false, `could not start: ${error.message}\n`));
    child.on("close", (code) => finish(code === 0));
  });
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
