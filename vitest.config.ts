import fs from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const FOLDERS = ["lib", "db", "app", "components", "bench", "test"];

/**
 * Test files that need a fresh process of their own (the "isolated" project): those that replace a module
 * (`vi.mock`, `vi.doMock`: a mock can only replace a module its file loads first), and those that change the process
 * in a way nothing can undo, which say so on a line of their own: `// vitest: isolated (why)` (the login throttle's
 * tests load the server's preload, which patches node:http for the rest of the process). Found by reading the files.
 */
const MOCKING = FOLDERS.flatMap((folder) =>
  fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.test\.ts$/.test(f) && !/\.pg\.test\.ts$/.test(f) && !f.includes("node_modules"))
    .map((f) => `${folder}/${f.split(path.sep).join("/")}`)
    .filter((f) => /\bvi\.(mock|doMock)\(|^\/\/ vitest: isolated\b/m.test(fs.readFileSync(path.join(ROOT, f), "utf8"))),
);

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      "server-only": fileURLToPath(new URL("./scripts/server-only-stub.js", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    globalSetup: ["./test/support/pglite-template.ts"],
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine. Most files
    // spend their time waiting (embedded database, child processes, timers), so two share the cores well.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    // Fixtures open embedded databases: seconds of CPU each, minutes of wall time when `npm test` runs its suites
    // side by side on a machine others load too (a fresh-clone CI at load average 20-29 timed out at 60 s).
    hookTimeout: 180_000,
    projects: [
      // Most files share a worker's loaded modules (Next.js, PGlite, the shell parser load once per worker, not
      // once per file: the suite takes a third of the CPU it took with a fresh module graph per file).
      // test/support/fresh-file.ts puts back the environment and the cockpit's process-wide state before each file.
      {
        extends: true,
        test: {
          name: "shared",
          isolate: false,
          setupFiles: ["./test/support/fresh-file.ts"],
          include: FOLDERS.map((f) => `${f}/**/*.test.ts`),
          exclude: ["**/*.pg.test.ts", "node_modules/**", ...MOCKING],
        },
      },
      // (Each project names its own files: `extends` would append these lists to inherited ones.)
      { extends: true, test: { name: "isolated", isolate: true, include: MOCKING } },
    ],
  },
});
