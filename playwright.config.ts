import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
// Each run gets its own data folder and HOME, so tests never touch a real cockpit or real agent settings.
const dataDir = process.env.E2E_DATA ?? path.join(os.tmpdir(), `cockpit-e2e-${process.pid}`);
process.env.E2E_DATA = dataDir;
process.env.E2E_PORT = String(port);
// The server binds 127.0.0.1. Pages and links use "localhost": WebAuthn refuses an IP address as the relying
// party, and Chromium and Node (autoSelectFamily) both fall back from ::1 to 127.0.0.1. The health check uses the address.
const origin = `http://localhost:${port}`;

const chromium = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
  ],
};

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: origin,
    launchOptions: chromium,
    trace: "off",
    screenshot: "only-on-failure",
  },
  projects: [
    // Tests tagged @any-viewport do not depend on the viewport (server refusals, volumes, files changed on disk; the
    // collaborators test opens its own phone): they run once, on desktop. The other agents' specs (Codex, Gemini CLI,
    // Cursor CLI: their cards and rules, Gemini's deny-only card) run once too, on the phone, so the two projects,
    // which run at the same time, end together.
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
      testIgnore: /(codex|gemini-cursor)\.spec\.ts$/,
    },
    // The phone project runs what a phone changes: every page's layout (a11y.spec visits every page and dialog),
    // answering cards by touch, signing in, the offline and deep-link paths, the Rules, Audit, Settings and
    // notification forms. Stopping a server, the CLI and response headers run on desktop only.
    {
      name: "phone",
      use: { ...devices["Pixel 7"], launchOptions: chromium },
      testIgnore: /(shutdown|cli|security-headers)\.spec\.ts$/,
      grepInvert: /@any-viewport/,
    },
  ],
  webServer: {
    // E2E_NO_BUILD=1 (scripts/e2e.mjs's second project): the first server already rebuilt a stale build.
    command: `node bin/cockpit.mjs start --port ${port}${process.env.E2E_NO_BUILD === "1" ? " --no-build" : ""}`,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      COCKPIT_DATA: dataDir,
      HOME: path.join(dataDir, "home"),
      PORT: String(port),
      COCKPIT_PUBLIC_URL: origin,
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
