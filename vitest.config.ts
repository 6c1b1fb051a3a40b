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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
