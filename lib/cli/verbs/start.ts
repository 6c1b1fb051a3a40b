import { AppError, ConflictError, UnavailableError, ValidationError } from "@/lib/errors";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { EnvError, loadEnv } from "@/lib/config/env";
import { PEER_PRELOAD } from "@/lib/http/client-key";
import {
  DEVELOPER_CREDENTIAL_ENV,
  ensureDeveloperCredential,
  LOCAL_CREDENTIAL_ENV,
  readLocalCredential,
  writeLocalCredential,
} from "@/lib/auth/local-credential";
import { exposureWarning, localUrl } from "../listen-address";
import { packageRoot } from "../package-root";
import { parseFlags, type Verb } from "../verb";

const ROOT = packageRoot();
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const SOURCE_DIRS = ["app", "components", "lib", "db", "public"];
const SOURCE_FILES = ["next.config.ts", "proxy.ts", "instrumentation.ts", "package.json", "tsconfig.json"];

function newestMtime(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** A build is needed when there is none or any source file is newer than it. */
function buildIsStale(root = ROOT): boolean {
  const buildId = path.join(root, process.env.COCKPIT_DIST_DIR || ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  const newest = Math.max(
    ...SOURCE_DIRS.map((d) => newestMtime(path.join(root, d))),
    ...SOURCE_FILES.map((f) => newestMtime(path.join(root, f))),
  );
  return newest > built;
}

/**
 * Only one server may own a data folder (PGlite allows one process): refuse to start when the
 * credential's launcher is alive and its server answers.
 */
async function runningServer(dataDir: string): Promise<{ url: string; pid: number } | null> {
  const credential = readLocalCredential(dataDir);
  if (!credential) return null;
  try {
    process.kill(credential.pid, 0);
  } catch {
    return null;
  }
  try {
    const res = await fetch(`${credential.url}/api/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok ? { url: credential.url, pid: credential.pid } : null;
  } catch {
    return null;
  }
}

async function waitForHealth(
  url: string,
  child: { exitCode: number | null },
  timeoutMs: number,
): Promise<{ database: string }> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new UnavailableError(`the server exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}/api/health`);
      const body = (await res.json()) as { ok: boolean; database: string; error?: string };
      if (res.ok && body.ok) return body;
      last = body.error ?? `HTTP ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new UnavailableError(`the server did not become healthy within ${timeoutMs / 1000} s (${last})`);
}

export const startVerb: Verb = {
  name: "start",
  summary: "build if needed, migrate and serve the cockpit; prints a login link",
  usage: `Usage: cockpit start [--port N] [--no-build]

Builds the app when there is no build or the sources are newer, applies database
migrations, serves on http://127.0.0.1:PORT (default 3000; loopback only unless
COCKPIT_HOST says otherwise) and prints a one-time owner login link.

Environment:
  PORT                 port to listen on (default 3000)
  COCKPIT_HOST         address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN, with a warning
                       unless COCKPIT_PUBLIC_URL is https)
  COCKPIT_DATA         data folder (default ./.cockpit): embedded database, local credential
  DATABASE_URL         postgres://… to use a PostgreSQL server instead of the embedded database
  COCKPIT_PUBLIC_URL   the URL people open (links in notifications), e.g. https://cockpit.example
  COCKPIT_WEBHOOK_ALLOW_HOSTS  comma-separated private hosts webhooks may target
  COCKPIT_TRUST_PROXY  1 = behind a reverse proxy: take client addresses from X-Forwarded-For`,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { port: { type: "string" }, "no-build": { type: "boolean" } },
      true,
    );
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    if (values.port) process.env.PORT = values.port;
    let env;
    try {
      env = loadEnv();
    } catch (error) {
      if (error instanceof EnvError) throw new ValidationError(error.message);
      throw error;
    }
    process.env.COCKPIT_DATA = env.dataDir;
    process.env.COCKPIT_ROOT = ROOT;
    process.env.NEXT_TELEMETRY_DISABLED = "1";

    const running = await runningServer(env.dataDir);
    if (running)
      throw new ConflictError(
        `the cockpit is already running at ${running.url} (pid ${running.pid}) with the data folder ${env.dataDir}; stop it first or set COCKPIT_DATA`,
      );

    if (!values["no-build"]) {
      // The CLI bundle (agents' hooks, `cockpit decide`): a second or two, and only when a source changed.
      spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-cli.mjs"), "--if-stale"], {
        cwd: ROOT,
        stdio: "inherit",
      });
      if (buildIsStale()) {
        process.stdout.write("Building the cockpit (first start or changed sources)…\n");
        const build = spawnSync(process.execPath, [NEXT_BIN, "build"], {
          cwd: ROOT,
          stdio: "inherit",
          env: process.env,
        });
        if (build.status !== 0) throw new AppError("the build failed; see the output above");
      }
    }

    const url = localUrl(env.COCKPIT_HOST, env.PORT);
    const warning = exposureWarning(env.COCKPIT_HOST, env.COCKPIT_PUBLIC_URL);
    if (warning) process.stderr.write(`${warning}\n`);
    const credential = writeLocalCredential(env.dataDir, url, process.pid);
    const developer = ensureDeveloperCredential(env.dataDir);
    // The preload stamps each request with its socket address (lib/http/client-key.ts): route handlers cannot see it.
    const preload = path.join(ROOT, PEER_PRELOAD);
    const child = spawn(
      process.execPath,
      // keepAliveTimeout above Node's 5 s default: a client that reuses a keep-alive connection just as the server
      // closes it gets ECONNRESET (seen under load in the e2e suite); 65 s is longer than proxies' usual idle 60 s.
      [
        "--require",
        preload,
        NEXT_BIN,
        "start",
        "-p",
        String(env.PORT),
        "-H",
        env.COCKPIT_HOST,
        "--keepAliveTimeout",
        "65000",
      ],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, [LOCAL_CREDENTIAL_ENV]: credential.hash, [DEVELOPER_CREDENTIAL_ENV]: developer.hash },
      },
    );
    // Next prints its own banner; keep its later log lines but not the banner noise.
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      if (!/▲ Next\.js|- Local:|- Network:|✓ Ready|✓ Starting|Starting\.\.\./.test(text)) process.stdout.write(text);
    });
    const stop = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    const exited = new Promise<number>((resolve) =>
      child.on("exit", (code, signal) => resolve(code ?? (signal ? 0 : 1))),
    );

    try {
      const health = await waitForHealth(url, child, 120_000);
      const res = await fetch(`${url}/api/local/login-link`, {
        method: "POST",
        headers: { authorization: `Bearer ${JSON.parse(fs.readFileSync(credential.file, "utf8")).token}` },
      });
      if (!res.ok) throw new UnavailableError(`could not mint a login link (HTTP ${res.status})`);
      const link = (await res.json()) as { url: string };
      process.stdout.write(
        `\nPermissions Cockpit is running at ${url} (database: ${health.database}, data: ${env.dataDir})\n` +
          `Open this one-time login link (valid 15 minutes; \`npx cockpit login-link\` prints a new one):\n${link.url}\n\n`,
      );
    } catch (error) {
      child.kill("SIGTERM");
      throw error;
    }
    const code = await exited;
    try {
      fs.rmSync(credential.file, { force: true });
    } catch {
      // Best effort: a stale credential is refused by the next server anyway.
    }
    return code;
  },
};
