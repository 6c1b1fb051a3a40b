import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `npm run e2e:claude-code`: the real Claude Code against the cockpit (e2e-claude-code/). Installs Claude Code on
// demand into .oracle/claude-code/ (about 400 MB). Tests without a page run on the desktop project only.
export default defineConfig({
  ...base,
  testDir: "e2e-claude-code",
  timeout: 300_000,
  // A first start builds the app; on a busy machine that takes longer than the main suite allows.
  webServer: { ...(base.webServer as object), timeout: 900_000 } as typeof base.webServer,
  projects: base.projects!.map((p) => (p.name === "phone" ? { ...p, grep: /@browser/ } : p)),
});
