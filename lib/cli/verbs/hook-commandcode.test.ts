import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Command Code's documented hook payload (`/docs/hooks/best-practices`, fields from `/docs/hooks/reference`).
const data = mkdtempSync(path.join(os.tmpdir(), "hook-cmd-"));
const ws = path.join(data, "project");
const pre = (command: string, extra: Record<string, unknown> = {}) => ({
  session_id: "test",
  transcript_path: "/tmp/t.jsonl",
  cwd: ws,
  hook_event_name: "PreToolUse",
  permission_mode: "standard",
  tool_name: "shell_command",
  tool_display_name: "SHELL",
  tool_input: { command },
  ...extra,
});

type Answer = { status: string; settlement: unknown } | "never" | "coalesced";
let answer: Answer = "never";
const seen: { method: string; url: string; auth?: string; body?: unknown }[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  mkdirSync(path.join(ws, ".commandcode"), { recursive: true });
  // Seed 002's settings shape: a deny rule Command Code itself enforces.
  writeFileSync(
    path.join(ws, ".commandcode/settings.json"),
    JSON.stringify({ permissions: { deny: ["Shell(rm -rf *)"], allow: [] } }),
  );
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
    if (req.method === "POST" && req.url === "/api/agent/v1/cards") {
      if (answer === "coalesced")
        return send(200, {
          status: "coalesced",
          decision: { decision: "allow", step: "allow-rule", reason: "session entry Shell(npm publish)", rule: null },
        });
      return send(201, { id: "c1", status: "pending", hash: "h", url: "http://x/cards/c1" });
    }
    if (req.method === "POST" && req.url === "/api/agent/v1/tool-use") return send(201, { recorded: 1 });
    if (req.method === "DELETE") return send(200, { id: "c1", aborted: true });
    if (req.method === "GET" && req.url!.startsWith("/api/agent/v1/cards/c1")) {
      if (answer === "never" || answer === "coalesced") {
        const wait = Number(new URL(req.url!, "http://x").searchParams.get("wait"));
        const timer = setTimeout(() => send(200, { id: "c1", status: "pending", settlement: null }), wait * 1000);
        req.on("close", () => clearTimeout(timer));
        return;
      }
      const a = answer;
      setTimeout(() => send(200, { id: "c1", ...a }), 100);
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

function runHook(payload: unknown, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, ["bin/cockpit.mjs", "hook", "commandcode"], {
      env: {
        PATH: process.env.PATH,
        HOME: data,
        // The cockpit's own data folder is protected: keep it apart from the project.
        COCKPIT_DATA: path.join(data, "cockpit-data"),
        COCKPIT_TOKEN: "cpa_test",
        COCKPIT_URL: base,
        COMMANDCODE_PROJECT_DIR: ws,
        COMMANDCODE_SESSION_ID: "test",
        COMMANDCODE_HOOK_EVENT: String((payload as { hook_event_name?: string }).hook_event_name),
        ...env,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin!.end(typeof payload === "string" ? payload : JSON.stringify(payload));
  });
}

describe("cockpit hook commandcode", () => {
  it("gives no opinion on what Command Code allows itself, and denies what its rules deny, without a card", async () => {
    seen.length = 0;
    expect(await runHook(pre("git status"))).toEqual({ code: 0, stdout: "" });
    const denied = await runHook(pre("rm -rf /tmp/build"));
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({
      systemMessage: expect.stringContaining("Shell(rm -rf *)"),
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("Shell(rm -rf *)"),
      },
    });
    expect(seen).toEqual([]);
  }, 180_000);

  it("posts a card for what Command Code would ask about and prints the person's allow", async () => {
    answer = {
      status: "allowed",
      settlement: { outcome: "allow", remember: "once", message: null, source: "user", by: "alice" },
    };
    seen.length = 0;
    const { code, stdout } = await runHook(pre("npm publish", { tool_use_id: "toolu_1" }));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "Allowed in the permissions cockpit.",
      },
    });
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/api/agent/v1/cards",
      auth: "Bearer cpa_test",
      body: {
        agent: "commandcode",
        sessionId: "test",
        mode: "standard",
        tool: "shell_command",
        input: { command: "npm publish" },
        cwd: ws,
      },
    });
    expect((seen[0]!.body as Record<string, unknown>).agentAsked).toBeUndefined();
  }, 180_000);

  it("prints the deny with the approver's reason for the model and a message for the person", async () => {
    answer = {
      status: "denied",
      settlement: { outcome: "deny", remember: "once", message: "publish from CI only", source: "user", by: "alice" },
    };
    const { stdout } = await runHook(pre("npm publish"));
    expect(JSON.parse(stdout)).toEqual({
      systemMessage: "permissions cockpit: publish from CI only",
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "publish from CI only",
      },
    });
  }, 180_000);

  it("a cockpit rule that settles the card at admission answers at once", async () => {
    answer = "coalesced";
    const { stdout } = await runHook(pre("npm publish"));
    expect(JSON.parse(stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "allow" });
  }, 180_000);

  it("no answer in time, an unreachable cockpit or a refused setup: no opinion, and the card is retired", async () => {
    answer = "never";
    seen.length = 0;
    expect(await runHook(pre("npm publish"), { COCKPIT_HOOK_WAIT: "1" })).toEqual({ code: 0, stdout: "" });
    expect(seen.map((s) => s.method)).toEqual(["POST", "GET", "DELETE"]);
    expect(await runHook(pre("npm publish"), { COCKPIT_URL: "http://127.0.0.1:9" })).toEqual({ code: 0, stdout: "" });
    expect(await runHook(pre("npm publish"), { COCKPIT_TOKEN: "" })).toEqual({ code: 0, stdout: "" });
    expect(await runHook("not json")).toEqual({ code: 0, stdout: "" });
  }, 180_000);

  it("PostToolUse feeds the audit log", async () => {
    seen.length = 0;
    const post = {
      ...pre("npm test", { tool_use_id: "toolu_2" }),
      hook_event_name: "PostToolUse",
      tool_response: { stdout: "ok" },
    };
    expect(await runHook(post)).toEqual({ code: 0, stdout: "" });
    expect(seen).toEqual([
      {
        method: "POST",
        url: "/api/agent/v1/tool-use",
        auth: "Bearer cpa_test",
        body: {
          agent: "commandcode",
          phase: "post",
          sessionId: "test",
          toolUseId: "toolu_2",
          tool: "shell_command",
          input: { command: "npm test" },
          cwd: ws,
        },
      },
    ]);
  }, 180_000);
});

describe("cockpit connect / disconnect commandcode", () => {
  it("installs exactly the cockpit's hooks in .commandcode/settings.json and removes exactly them", () => {
    const file = path.join(ws, ".commandcode/settings.json");
    const before = readFileSync(file, "utf8");
    const env = { ...process.env, HOME: data, COCKPIT_DATA: path.join(data, "cockpit-data") };
    const run = (args: string[]) =>
      spawnSync(process.execPath, ["bin/cockpit.mjs", ...args], { env, encoding: "utf8" });
    const connected = run(["connect", "commandcode", "--workspace", ws, "--url", "http://127.0.0.1:4000"]);
    expect(connected.status).toBe(0);
    expect(connected.stdout).toContain("may still ask");
    const hooks = JSON.parse(readFileSync(file, "utf8")).hooks;
    expect(hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: "command", timeout: 600 });
    expect(hooks.PreToolUse[0].hooks[0].command).toMatch(
      /^COCKPIT_URL=http:\/\/127\.0\.0\.1:4000 node ".*cockpit\.mjs" hook commandcode$/,
    );
    expect(hooks.PostToolUse[0].hooks[0]).toMatchObject({ timeout: 10 });
    expect(run(["disconnect", "commandcode", "--workspace", ws]).status).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
  }, 180_000);
});
