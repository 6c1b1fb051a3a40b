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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
