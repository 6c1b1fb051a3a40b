#!/usr/bin/env node
// `npm test`: every suite CI runs, in order, each reported; exits non-zero if any failed.
import { spawnSync } from "node:child_process";

const suites = [
  ["format", "npx", ["prettier", "--check", "."]],
  ["type-check", "npx", ["tsc", "--noEmit"]],
  // No circular imports; lib/policy imports no I/O (rules in .dependency-cruiser.cjs).
  [
    "imports",
    "npx",
    [
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
  ],
  ["unit", "npx", ["vitest", "run"]],
  ["postgres", "npx", ["vitest", "run", "--config", "vitest.pg.config.ts"]],
  ["e2e", "npx", ["playwright", "test"]],
  // The mevedel bridge's ERT tests (Debian's emacs-nox) against a real cockpit; after e2e, which built the app.
  ["emacs", "node", ["integrations/mevedel/test/run.mjs"]],
];
const only = process.argv.slice(2);
const results = [];
for (const [name, cmd, args] of suites) {
  if (only.length && !only.includes(name)) continue;
  process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(" ")}\n`);
  const started = Date.now();
  // Only the Postgres suite talks to DATABASE_URL; the e2e server keeps its own embedded database.
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  if (name !== "postgres") delete env.DATABASE_URL;
  const run = spawnSync(cmd, args, { stdio: "inherit", env });
  results.push({ name, ok: run.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}
process.stdout.write("\n=== summary\n");
for (const r of results) process.stdout.write(`${r.ok ? "ok  " : "FAIL"}  ${r.name} (${r.seconds} s)\n`);
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`suites: ${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
