// Can a hostile workspace or hostile clients take the cockpit down? Starts the built server (or uses
// BENCH_URL + BENCH_PID of a running one, with BENCH_TOKEN = its local credential), registers a
// workspace whose .mevedel/permissions.el is a symlink to /dev/zero, and keeps listing its entries and
// admitting mevedel cards while BENCH_CLIENTS (10) clients send BENCH_BODY_MB (50) MB bodies. Samples the
// next-server process's VmRSS and /api/health latency; prints max RSS and health p50/p99/max.
// Run: npx tsx bench/hardening/run.ts   Env: BENCH_PORT (3472), BENCH_SECONDS (20), COCKPIT_DIST_DIR
// (default .next-bench; built if stale unless BENCH_NO_BUILD=1). Targets: RSS < 1 GB, health < 100 ms.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const PORT = Number(process.env.BENCH_PORT ?? 3472);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const BODY_MB = Number(process.env.BENCH_BODY_MB ?? 50);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-bench-hardening-"));
const data = path.join(root, "data");
const workspace = path.join(root, "workspace");
fs.mkdirSync(path.join(workspace, ".mevedel"), { recursive: true });
fs.symlinkSync("/dev/zero", path.join(workspace, ".mevedel", "permissions.el"));
fs.mkdirSync(path.join(root, "home"));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

function children(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, "utf8");
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) === pid) out.push(Number(name));
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** The next-server process below the launcher (its comm is "next-server (v…)"). */
function findNextServer(launcher: number): number {
  const queue = [launcher];
  while (queue.length) {
    const pid = queue.shift()!;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("next-server")) return pid;
    } catch {
      // gone
    }
    queue.push(...children(pid));
  }
  throw new Error(`no next-server process below pid ${launcher}`);
}

function rssKiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
}

/** One huge upload; half declare Content-Length, half stream chunked. Resolves with the status. */
function hugeUpload(base: URL, route: string, declareLength: boolean, bearer?: string): Promise<number> {
  const total = BODY_MB * 1024 * 1024;
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { "content-type": "application/json", origin: base.origin };
    if (declareLength) headers["content-length"] = total;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const req = http.request(new URL(route, base), { method: "POST", headers });
    let sent = 0;
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve(status);
    };
    req.on("response", (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    req.on("error", () => finish(-1));
    const pump = () => {
      while (!done && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!done && sent >= total) req.end();
    };
    pump();
  });
}

async function main() {
  let server: ChildProcess | null = null;
  let base: URL;
  let owner: string;
  let serverPid: number;
  if (process.env.BENCH_URL) {
    base = new URL(process.env.BENCH_URL);
    owner = process.env.BENCH_TOKEN ?? "";
    serverPid = Number(process.env.BENCH_PID);
    if (!owner || !serverPid) throw new Error("with BENCH_URL set BENCH_TOKEN (local credential) and BENCH_PID");
  } else {
    base = new URL(`http://127.0.0.1:${PORT}`);
    server = spawn(
      process.execPath,
      ["bin/cockpit.mjs", "start", "--port", String(PORT), ...(process.env.BENCH_NO_BUILD ? ["--no-build"] : [])],
      {
        env: {
          ...process.env,
          COCKPIT_DATA: data,
          HOME: path.join(root, "home"),
          COCKPIT_DIST_DIR: process.env.COCKPIT_DIST_DIR ?? ".next-bench",
          DATABASE_URL: process.env.DATABASE_URL ?? "",
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    await new Promise<void>((resolve, reject) => {
      let out = "";
      server!.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("Permissions Cockpit is running")) resolve();
      });
      server!.on("exit", (code) => reject(new Error(`cockpit exited with ${code}:\n${out}`)));
    });
    owner = (JSON.parse(fs.readFileSync(path.join(data, "local-credential.json"), "utf8")) as { token: string }).token;
    serverPid = findNextServer(server.pid!);
  }
  try {
    const api = async (method: string, url: string, token: string, body?: unknown) => {
      const res = await fetch(new URL(url, base), {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const ws = await api("POST", "/api/v1/workspaces", owner, { path: workspace, name: "dev-zero" });
    const workspaceId = String(ws.json.id ?? (ws.json.workspace as { id?: string } | undefined)?.id);
    const agent = String((await api("POST", "/api/v1/agent-tokens", owner, { workspace: workspaceId })).json.token);

    const rssStart = rssKiB(serverPid);
    const deadline = Date.now() + SECONDS * 1000;
    const health: number[] = [];
    let rssMax = rssStart;
    const sampler = setInterval(() => {
      try {
        rssMax = Math.max(rssMax, rssKiB(serverPid));
      } catch {
        // The server died: reported below by failing requests.
      }
    }, 100);
    const healthLoop = (async () => {
      while (Date.now() < deadline) {
        const t = performance.now();
        const res = await fetch(new URL("/api/health", base)).catch(() => null);
        if (res) await res.json().catch(() => undefined);
        health.push(res?.ok ? performance.now() - t : Infinity);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const statuses = new Map<string, number>();
    const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
    const uploads = Array.from({ length: CLIENTS }, async (_, i) => {
      const route = i % 2 ? "/api/auth/login" : "/api/agent/v1/cards";
      while (Date.now() < deadline)
        count(`upload ${route} ${await hugeUpload(base, route, i % 4 < 2, i % 2 ? undefined : agent)}`);
    });
    let listings = 0;
    let invalidReason = "";
    const lister = (async () => {
      while (Date.now() < deadline) {
        const res = await api("GET", `/api/v1/entries?workspace=${workspaceId}`, owner);
        listings++;
        const stores = (res.json.stores ?? []) as { path: string; valid: boolean; error?: string }[];
        invalidReason = stores.find((s) => s.path.endsWith("permissions.el"))?.error ?? invalidReason;
        const card = await api("POST", "/api/agent/v1/cards", agent, {
          agent: "mevedel",
          sessionId: "bench",
          tool: "Bash",
          input: { command: `ls ${listings}` },
        });
        count(`admit ${card.status}`);
      }
    })();
    await Promise.all([healthLoop, lister, ...uploads]);
    clearInterval(sampler);

    const finite = health.filter(Number.isFinite);
    console.log(`${SECONDS} s, ${CLIENTS} clients × ${BODY_MB} MB bodies, /dev/zero store listed ${listings} times`);
    console.log(`store reported: ${invalidReason || "(not reported)"}`);
    console.log(`responses: ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(", ")}`);
    console.log(`next-server RSS: start ${(rssStart / 1024).toFixed(0)} MiB, max ${(rssMax / 1024).toFixed(0)} MiB`);
    console.log(
      `/api/health (${health.length} requests, ${health.length - finite.length} failed): p50 ${ms(pct(finite, 50))}, p99 ${ms(pct(finite, 99))}, max ${ms(Math.max(...finite))}`,
    );
    const ok = rssMax < 1024 * 1024 && Math.max(...finite) < 100 && finite.length === health.length;
    console.log(ok ? "targets met (RSS < 1 GB, health < 100 ms)" : "targets NOT met (RSS < 1 GB, health < 100 ms)");
  } finally {
    server?.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
