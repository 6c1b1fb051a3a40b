#!/usr/bin/env node
// The mevedel bridge's ERT suite against a real cockpit: starts `cockpit start` on a free port with its own data
// folder, registers a workspace, creates an agent token, signs a person in, then runs Emacs in batch mode on
// cockpit-bridge-test.el. Exit code: Emacs's. Needs `emacs` (Debian: emacs-nox).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const cli = path.join(root, "bin/cockpit.mjs");

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const emacs = spawnSync("emacs", ["--version"], { encoding: "utf8" });
if (emacs.status !== 0) {
  console.error("emacs is not installed (apt-get install emacs-nox)");
  process.exit(1);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-mevedel-bridge-"));
const data = path.join(tmp, "data");
const home = path.join(tmp, "home");
const workspace = path.join(tmp, "workspace");
for (const d of [data, home, workspace]) fs.mkdirSync(d, { recursive: true });
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  COCKPIT_DATA: data,
  HOME: home,
  PORT: String(port),
  COCKPIT_PUBLIC_URL: origin,
  NEXT_TELEMETRY_DISABLED: "1",
};
delete env.DATABASE_URL;

const server = spawn(process.execPath, [cli, "start", "--port", String(port)], {
  cwd: root,
  env,
  stdio: ["ignore", "pipe", "pipe"],
  detached: true,
});
let serverLog = "";
server.stdout.on("data", (d) => (serverLog += d));
server.stderr.on("data", (d) => (serverLog += d));
const stop = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
};
process.on("exit", stop);

let code = 1;
try {
  // A first start may build the app (CI runs this suite after the e2e suite, which built it).
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the cockpit exited:\n${serverLog}`);
    try {
      const res = await fetch(`${origin}/api/health`);
      if (res.ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`the cockpit did not start:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const run = (args) => execFileSync(process.execPath, [cli, ...args], { cwd: root, env, encoding: "utf8" });
  run(["workspace", "add", workspace]);
  const token = run(["agent-token", "create", "--workspace", workspace]).trim().split("\n").at(-1);
  const link = new URL(run(["login-link"]).trim().split("\n").at(-1));
  const login = await fetch(`${origin}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ token: link.searchParams.get("token") }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

  const result = spawnSync(
    "emacs",
    [
      "--batch",
      "-Q",
      "-L",
      path.join(root, "integrations/mevedel"),
      "-L",
      here,
      "-l",
      "cockpit-bridge-test",
      "-f",
      "ert-run-tests-batch-and-exit",
    ],
    {
      cwd: workspace,
      env: {
        ...env,
        COCKPIT_URL: origin,
        COCKPIT_TOKEN: token,
        COCKPIT_TEST_COOKIE: cookie,
        COCKPIT_TEST_ORIGIN: origin,
      },
      stdio: "inherit",
      timeout: 10 * 60_000,
    },
  );
  code = result.status ?? 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  code = 1;
} finally {
  stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
