/**
 * Vitest setup file for the shared-worker project (vitest.config.ts): test files run one after another in a worker
 * that keeps its loaded modules (`isolate: false`), which saves each file from loading Next.js, PGlite and the shell
 * parser again. What a file could leave behind for the next one is put back before each file starts:
 * - the environment and the current folder as the worker started with them (a file that sets HOME or
 *   COCKPIT_DATA and never restores it cannot steer the next file's stores or database);
 * - the cockpit's process-wide state, kept on `globalThis` under `Symbol.for("permissions-cockpit.…")` keys: the
 *   server database handle, audit configuration, caches, rate-limit buckets, stream slots, the card bus. Each
 *   module recreates its state on first use, exactly as in a fresh process.
 * Files that replace modules with `vi.mock`, or change the process for good (patching node:http), run in the
 * isolated project instead; the latter say so with a `// vitest: isolated (why)` line (vitest.config.ts).
 */
const ENV_KEY = Symbol.for("permissions-cockpit.test.worker-env");
type WorkerStart = { env: Record<string, string | undefined>; cwd: string };
const g = globalThis as typeof globalThis & { [ENV_KEY]?: WorkerStart };

const start = (g[ENV_KEY] ??= { env: { ...process.env }, cwd: process.cwd() });
for (const key of Object.keys(process.env)) if (!(key in start.env)) delete process.env[key];
for (const [key, value] of Object.entries(start.env)) if (process.env[key] !== value) process.env[key] = value;
if (process.cwd() !== start.cwd) process.chdir(start.cwd);

for (const key of Object.getOwnPropertySymbols(globalThis)) {
  const name = key.description ?? "";
  if (name.startsWith("permissions-cockpit.") && !name.startsWith("permissions-cockpit.test."))
    delete (globalThis as Record<symbol, unknown>)[key];
}
