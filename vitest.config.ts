import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      "server-only": fileURLToPath(new URL("./scripts/server-only-stub.js", import.meta.url)),
    },
  },
  test: {
    include: [
      "lib/**/*.test.ts",
      "db/**/*.test.ts",
      "app/**/*.test.ts",
      "components/**/*.test.ts",
      "bench/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    exclude: ["**/*.pg.test.ts", "node_modules/**"],
    environment: "node",
    globalSetup: ["./test/support/pglite-template.ts"],
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine. Most files
    // spend their time waiting (embedded database, child processes, timers), so two share the cores well.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    // Fixtures open embedded databases: seconds of CPU each, minutes of wall time when `npm test` runs its suites
    // side by side on a machine others load too (a fresh-clone CI at load average 20-29 timed out at 60 s).
    hookTimeout: 180_000,
  },
});
