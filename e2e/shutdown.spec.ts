import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { tempFolder } from "./helpers";

// A second cockpit from the same build, on its own port and data folder, so this spec may stop it.
let data: string;
let port: number;
let server: ChildProcess;
let output = "";
let token: string;
let workspace: string;

const base = () => `http://127.0.0.1:${port}`;
const env = () => ({
  ...process.env,
  COCKPIT_DATA: data,
  HOME: path.join(data, "home"),
  PORT: String(port),
  COCKPIT_PUBLIC_URL: `http://localhost:${port}`,
  NEXT_TELEMETRY_DISABLED: "1",
});
const cli = (args: string[]) =>
  execFileSync(process.execPath, ["bin/cockpit.mjs", ...args], { env: env(), encoding: "utf8" });

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port: p } = probe.address() as net.AddressInfo;
  await new Promise((r) => probe.close(r));
  return p;
}

function startServer(): Promise<void> {
  output = "";
  server = spawn(process.execPath, ["bin/cockpit.mjs", "start", "--no-build", "--port", String(port)], {
    env: env(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d: Buffer) => (output += d));
  server.stderr!.on("data", (d: Buffer) => (output += d));
  // A server start takes minutes on a loaded machine (a fresh-clone CI at load average 29 needed more than 2).
  return expect.poll(() => output, { timeout: 300_000 }).toContain("one-time login link");
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));

test.describe.configure({ mode: "serial", timeout: 660_000 });

test.beforeAll(async () => {
  data = tempFolder("shutdown-data");
  fs.mkdirSync(path.join(data, "home"));
  workspace = tempFolder("shutdown-ws");
  port = await freePort();
  await startServer();
  cli(["workspace", "add", workspace]);
  token = cli(["agent-token", "create", "--workspace", workspace]).trim().split("\n").at(-1)!.trim();
});

test.afterAll(() => {
  if (server.exitCode === null) server.kill("SIGKILL");
});

test("SIGTERM releases an agent's long-poll and a browser's event stream, and the server exits within 5 s", async ({
  page,
}) => {
  // A person's event stream, with the session a login link gives.
  await page.goto(output.match(/http:\/\/\S+\/login\?token=\S+/)![0]);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const stream = await fetch(`${base()}/api/v1/events`, { headers: { cookie } });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain("connected");
  const streamEnded = (async () => {
    for (;;) if ((await reader.read()).done) return true;
  })().catch(() => true);

  // An agent waiting on a card, as the hook does.
  const admitted = await fetch(`${base()}/api/agent/v1/cards`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      agent: "claude-code",
      sessionId: "shutdown-1",
      tool: "Bash",
      input: { command: "npm publish" },
    }),
  });
  expect(admitted.status).toBe(201);
  const { id } = (await admitted.json()) as { id: string };
  const poll = fetch(`${base()}/api/agent/v1/cards/${id}?wait=120`, {
    headers: { authorization: `Bearer ${token}` },
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: string } }));
  // Let both requests settle into waiting before the signal.
  await new Promise((r) => setTimeout(r, 500));

  const signalled = Date.now();
  server.kill("SIGTERM");
  // The long-poll comes back at once with the card still pending: the hook reconnects to the next server.
  expect(await poll).toEqual({ status: 200, body: expect.objectContaining({ id, status: "pending" }) });
  expect(await streamEnded).toBe(true);
  await exited(server);
  expect(Date.now() - signalled).toBeLessThan(5000);
  // Nothing listens any more.
  await expect(fetch(`${base()}/api/health`)).rejects.toThrow();

  // The next server finds the card where it was.
  await startServer();
  const again = await fetch(`${base()}/api/agent/v1/cards/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await again.json()) as { status: string }).status).toBe("pending");
  server.kill("SIGINT");
  await exited(server);
});
