#!/usr/bin/env node
// The browser suite as `npm test` runs it: the desktop and the phone project at the same time, each with its own
// cockpit server (port, data folder, HOME) and its own output folder, so neither sees the other's cards or files.
// Half of an e2e test is waiting (a server answer, a live event, a hook's process), so two servers on two cores
// finish in a little more than the longer project's time instead of the sum of both.
// Arguments are passed to each `playwright test` (a spec file, `-g <title>`). E2E_SERIAL=1 runs one after the other;
// E2E_PORT is the first of the two ports (default 3210).
import { spawn } from "node:child_process";

const base = Number(process.env.E2E_PORT ?? 3210);
const projects = ["desktop", "phone"];
const extra = process.argv.slice(2);

function run(project, port) {
  return new Promise((resolve) => {
    const chunks = [];
    const started = Date.now();
    // Each project's config picks its own data folder (by process id) unless one is forced.
    const env = { ...process.env, E2E_PORT: String(port) };
    delete env.E2E_DATA;
    const child = spawn(
      "npx",
      [
        "playwright",
        "test",
        "--project",
        project,
        "--output",
        `test-results/${project}`,
        "--pass-with-no-tests",
        ...extra,
      ],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout.on("data", (d) => chunks.push(d));
    child.stderr.on("data", (d) => chunks.push(d));
    child.on("error", (error) => {
      chunks.push(Buffer.from(`could not start playwright: ${error.message}\n`));
      resolve({ project, ok: false, chunks, seconds: 0 });
    });
    child.on("close", (code) =>
      resolve({ project, ok: code === 0, chunks, seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });
}

/**
 * Resolves once the cockpit on `port` answers its health check, or when `gone` settles (that run ended first).
 * `cockpit start` rebuilds a stale build before it listens: the second project starts its server only after the
 * first one is up, with --no-build, so two servers never run `next build` into one folder at once.
 */
async function serverUp(port, gone) {
  let ended = false;
  gone.then(() => (ended = true));
  while (!ended) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

const results = [];
if (process.env.E2E_SERIAL === "1") {
  for (const [i, p] of projects.entries()) results.push(await run(p, base + i));
} else {
  const first = run(projects[0], base);
  await serverUp(base, first);
  process.env.E2E_NO_BUILD = "1";
  const second = run(projects[1], base + 1);
  results.push(await first, await second);
}
for (const r of results) {
  process.stdout.write(`\n--- e2e ${r.project}: ${r.ok ? "ok" : "FAILED"} in ${r.seconds} s\n`);
  process.stdout.write(Buffer.concat(r.chunks));
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
