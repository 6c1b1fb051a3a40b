import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A real PermissionRequest payload, as in the Claude Code hooks reference.
const PAYLOAD = {
  session_id: "abc123",
  transcript_path: "/Users/me/.claude/projects/p/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl",
  cwd: "/Users/me/project",
  permission_mode: "default",
  hook_event_name: "PermissionRequest",
  tool_name: "Bash",
  tool_input: { command: "rm -rf node_modules", description: "Remove node_modules directory" },
  permission_suggestions: [
    {
      type: "addRules",
      rules: [{ toolName: "Bash", ruleContent: "rm -rf node_modules" }],
      behavior: "allow",
      destination: "localSettings",
    },
  ],
};

type Scenario = { status: string; settlement: unknown; delayMs: number } | "unauthorized" | "never";
let scenario: Scenario = "never";
const seen: { method: string; url: string; auth?: string; body?: unknown }[] = [];
let server: http.Server;
let base: string;
const data = mkdtempSync(path.join(os.tmpdir(), "hook-cli-"));

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    seen.push({
      method: req.method!,
      url: req.url!,
      auth: req.headers.authorization,
      body: raw ? JSON.parse(raw) : undefined,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (scenario === "unauthorized") return send(401, { error: "missing or invalid agent token" });
    if (req.method === "POST" && req.url === "/api/agent/v1/cards")
      return send(201, { id: "c1", status: "pending", hash: "h", url: "http://x/cards/c1" });
    if (req.method === "DELETE") return send(200, { id: "c1", aborted: true });
    if (req.method === "GET" && req.url!.startsWith("/api/agent/v1/cards/c1")) {
      if (scenario === "never") {
        const wait = Number(new URL(req.url!, "http://x").searchParams.get("wait"));
        const timer = setTimeout(() => send(200, { id: "c1", status: "pending", settlement: null }), wait * 1000);
        req.on("close", () => clearTimeout(timer));
        return;
      }
      const s = scenario;
      setTimeout(() => send(200, { id: "c1", status: s.status, settlement: s.settlement }), s.delayMs);
      return;
    }
    send(404, { error: "no route" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(data, { recursive: true, force: true });
});

function runHook(
  env: Record<string, string>,
  payload: unknown = PAYLOAD,
  onStart?: (child: ChildProcess) => void,
  agent = "claude-code",
) {
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const childEnv: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      HOME: data,
      COCKPIT_DATA: data,
      COCKPIT_TOKEN: "cpa_test",
      ...env,
    };
    const child = spawn(process.execPath, ["bin/cockpit.mjs", "hook", agent], {
      env: childEnv as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin!.end(typeof payload === "string" ? payload : JSON.stringify(payload));
    onStart?.(child);
  });
}

describe("cockpit hook claude-code", () => {
  it("prints Claude Code's exact allow JSON after an approval", async () => {
    scenario = {
      status: "allowed",
      settlement: { outcome: "allow", remember: "once", message: null, source: "user", by: "alice" },
      delayMs: 200,
    };
    seen.length = 0;
    const { code, stdout } = await runHook({ COCKPIT_URL: base });
    expect(code).toBe(0);
    expect(stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n',
    );
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/api/agent/v1/cards",
      auth: "Bearer cpa_test",
      body: {
        agent: "claude-code",
        sessionId: "abc123",
        tool: "Bash",
        input: PAYLOAD.tool_input,
        mode: "default",
        originPath: "/root",
        // The floor (issue 19 §1): the command hook tells the cockpit that Claude Code itself asked.
        agentAsked: true,
      },
    });
  });

  it("prints the deny JSON with the approver's feedback", async () => {
    scenario = {
      status: "denied",
      settlement: { outcome: "deny", remember: "once", message: "use npm prune", source: "user", by: "alice" },
      delayMs: 50,
    };
    const { code, stdout } = await runHook({ COCKPIT_URL: base });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "use npm prune" },
      },
    });
  });

  it("prints nothing and exits 0 when the cockpit is down or the token is refused", async () => {
    const closed = await runHook({ COCKPIT_URL: "http://127.0.0.1:9" });
    expect(closed).toEqual({ code: 0, stdout: "" });
    scenario = "unauthorized";
    expect(await runHook({ COCKPIT_URL: base })).toEqual({ code: 0, stdout: "" });
    expect(await runHook({ COCKPIT_URL: base, COCKPIT_TOKEN: "" })).toEqual({ code: 0, stdout: "" });
    expect(await runHook({ COCKPIT_URL: base }, "not json")).toEqual({ code: 0, stdout: "" });
  });

  it("on timeout prints nothing and aborts the card", async () => {
    scenario = "never";
    seen.length = 0;
    expect(await runHook({ COCKPIT_URL: base, COCKPIT_HOOK_WAIT: "1" })).toEqual({ code: 0, stdout: "" });
    expect(seen.map((s) => s.method)).toEqual(["POST", "GET", "DELETE"]);
  });

  it("when Claude Code stops the hook (SIGTERM) it aborts the card and prints nothing", async () => {
    scenario = "never";
    seen.length = 0;
    const result = await runHook({ COCKPIT_URL: base }, PAYLOAD, (child) => {
      const poll = setInterval(() => {
        if (seen.some((s) => s.method === "GET")) {
          clearInterval(poll);
          child.kill("SIGTERM");
        }
      }, 50);
    });
    expect(result).toEqual({ code: 0, stdout: "" });
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", url: "/api/agent/v1/cards/c1" });
  });

  it("forwards UserPromptSubmit as a user message and prints nothing", async () => {
    scenario = "never";
    seen.length = 0;
    expect(
      await runHook({ COCKPIT_URL: base }, { ...PAYLOAD, hook_event_name: "UserPromptSubmit", prompt: "go on" }),
    ).toEqual({ code: 0, stdout: "" });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/api/agent/v1/sessions/abc123/user-message" });
  });
});

// Cursor lets an action through on an empty answer unless the entry fails closed: its hook always answers, never allow.
describe("cockpit hook cursor", () => {
  const shell = {
    conversation_id: "668320d2-2fd8-4888-b33c-2a466fec86e7",
    generation_id: "490b90b7-a2ce-4c2c-bb76-cb77b125df2f",
    hook_event_name: "beforeShellExecution",
    command: "npm install left-pad",
    cwd: data,
    workspace_roots: [data],
  };

  it("without a token it prints Cursor's ask", async () => {
    const { code, stdout } = await runHook({ COCKPIT_URL: base, COCKPIT_TOKEN: "" }, shell, undefined, "cursor");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ permission: "ask" });
  });

  it("with the cockpit unreachable it prints ask; an unreadable read payload is denied", async () => {
    const down = await runHook({ COCKPIT_URL: "http://127.0.0.1:9" }, shell, undefined, "cursor");
    expect(JSON.parse(down.stdout)).toMatchObject({ permission: "ask" });
    const read = await runHook({ COCKPIT_URL: base }, { hook_event_name: "beforeReadFile" }, undefined, "cursor");
    expect(JSON.parse(read.stdout)).toMatchObject({ permission: "deny" });
  });
});
