import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The Postgres suite: the database layer against a real server named by DATABASE_URL. */
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      "server-only": fileURLToPath(new URL("./scripts/server-only-stub.js", import.meta.url)),
    },
  },
  test: {
    include: ["**/*.pg.test.ts"],
    exclude: ["node_modules/**"],
    environment: "node",
    fileParallelism: false,
    // `npm test` runs this suite beside the others on a shared machine: 50 concurrent settlements or three
    // competing workers then wait minutes for a core, not for a bug. A hang still fails, only later.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
