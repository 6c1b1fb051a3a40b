import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSimulation, SimulatorScript } from "./simulate";

// A stub cockpit: `git status` is decided by policy, everything else becomes a card the "approver" denies.
const calls: { method: string; url: string; body?: Record<string, unknown> }[] = [];
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    calls.push({ method: req.method!, url: req.url!, body });
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
    };
    if (req.method === "POST" && req.url === "/api/agent/v1/cards") {
      if ((body!.input as { command?: string }).command === "busy" && !calls.some((c) => c.url === "limited")) {
        calls.push({ method: "429", url: "limited" });
        res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
        return res.end(JSON.stringify({ error: "asks too often", retryAfter: 1 }));
      }
      if ((body!.input as { command?: string }).command === "git status")
        return send(200, {
          status: "coalesced",
          decision: { decision: "allow", step: "read-only", reason: "read-only command", rule: null },
        });
      return send(201, { id: `card-${calls.length}`, status: "pending", hash: "h", url: "u" });
    }
    if (req.method === "GET")
      return send(200, { id: "x", status: "denied", settlement: { outcome: "deny", message: "not today" } });
    if (req.url!.endsWith("/user-message")) return send(200, { holdEnded: true });
    send(404, { error: "no route" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe("simulate", () => {
  it("plays each step through the agent API and prints one outcome line per step", async () => {
    const script = SimulatorScript.parse({
      sessionId: "sim-1",
      mode: "default",
      pauseMs: 0,
      steps: [
        { tool: "Bash", input: { command: "git status" } },
        { tool: "Bash", input: { command: "npm publish" }, originPath: "/root/worker", reason: "release" },
        { userMessage: true },
      ],
    });
    const lines: Record<string, unknown>[] = [];
    await runSimulation({ base, token: "cpa_x", workspace: "/tmp/ws", script, onLine: (l) => lines.push(l) });
    expect(lines).toEqual([
      { step: 0, tool: "Bash", status: "coalesced", outcome: "allow", message: "read-only command", id: null },
      {
        step: 1,
        tool: "Bash",
        status: "denied",
        outcome: "deny",
        message: "not today",
        id: expect.stringMatching(/^card-/),
      },
      { step: 2, userMessage: true, holdEnded: true },
    ]);
    expect(calls[1]!.body).toMatchObject({
      agent: "simulator",
      sessionId: "sim-1",
      originPath: "/root/worker",
      reason: "release",
      mode: "default",
      cwd: "/tmp/ws",
    });
    expect(calls.at(-1)!.url).toBe("/api/agent/v1/sessions/sim-1/user-message");
  });

  it("rejects a script without steps", () => {
    expect(SimulatorScript.safeParse({ sessionId: "s", steps: [] }).success).toBe(false);
  });
  it("waits Retry-After on 429 and asks again", async () => {
    const script = SimulatorScript.parse({
      sessionId: "sim-429",
      mode: "default",
      pauseMs: 0,
      steps: [{ tool: "Bash", input: { command: "busy" } }],
    });
    const lines: Record<string, unknown>[] = [];
    const started = Date.now();
    await runSimulation({ base, token: "cpa_x", workspace: "/tmp/ws", script, onLine: (l) => lines.push(l) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(calls.some((c) => c.url === "limited")).toBe(true);
    expect(lines).toEqual([expect.objectContaining({ step: 0, status: "denied" })]);
  });
});
