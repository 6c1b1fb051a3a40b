/**
 * The connector end to end with Cursor's documented payload shapes (https://cursor.com/docs/hooks, "Common schema"
 * and "Hook events") and a fake cockpit API. Invariant under test: no path answers `allow` unless the documented
 * matching allows or a person allowed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import type { ShellParser } from "@/lib/policy";
import { ctxOf, perms, store } from "@/test/support/cursor";
import { runCursorHook, type Api, type HookDeps } from "./connector";
import {
  callOf,
  cardRequest,
  CursorHookPayload,
  outputForCard,
  resolveMcpServer,
  verdictFor,
  type GatePayload,
} from "./hook";
import { decideCursor } from "./decide";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});

const common = {
  conversation_id: "conv-123",
  generation_id: "gen-456",
  model: "gpt-4",
  cursor_version: "1.7.2",
  workspace_roots: ["/w"],
  user_email: null,
};
const shellPayload = (command: string) => ({
  ...common,
  hook_event_name: "beforeShellExecution",
  command,
  cwd: "/w",
  sandbox: false,
});
const mcpPayload = {
  ...common,
  hook_event_name: "beforeMCPExecution",
  tool_name: "query_metrics",
  tool_input: '{"query":"avg:cpu"}',
  url: "https://mcp.datadoghq.com/sse",
};
const readPayload = (file_path: string) => ({
  ...common,
  hook_event_name: "beforeReadFile",
  file_path,
  content: "API_KEY=secret",
  attachments: [],
});

const ALLOW = ["Shell(git)", "Shell(ls)", "Mcp(datadog:*)", "Read(src/**)"];
const DENY = ["Shell(rm)", "Read(.env*)"];

/** A fake cockpit: records requests; `answer` is what the card settles to (or "down"). */
function cockpit(
  answer: "allow" | "deny" | "pending" | "down" | "coalesce",
  calls: { method: string; path: string; body?: unknown }[] = [],
): Api {
  return async (method, path, body) => {
    calls.push({ method, path, body });
    if (answer === "down") throw new Error("ECONNREFUSED");
    if (path === "/api/agent/v1/events") return { status: 201, json: { recorded: 1 } };
    if (method === "POST")
      return answer === "coalesce"
        ? { status: 200, json: { decision: { decision: "allow", reason: "session rule" } } }
        : { status: 201, json: { id: "c1" } };
    if (answer === "pending") return { status: 200, json: { status: "pending", settlement: null } };
    return {
      status: 200,
      json: {
        status: answer === "allow" ? "allowed" : "denied",
        settlement: { outcome: answer, by: "ana", message: answer === "deny" ? "not now" : null },
      },
    };
  };
}

function deps(
  api: Api | null,
  o: { allow?: string[]; deny?: string[]; stores?: ReturnType<typeof store>[] } = {},
): HookDeps {
  let t = 0;
  return {
    context: async () => ctxOf(o.stores ?? [store(perms(o.allow ?? ALLOW, o.deny ?? DENY))], shell),
    mcpServers: async () => ({
      datadog: { url: "https://mcp.datadoghq.com/sse" },
      github: { command: "npx", args: ["-y", "gh-mcp"] },
    }),
    api,
    waitSeconds: 5,
    now: () => (t += 1000),
    sleep: async () => {},
  };
}

const run = (payload: object, d: HookDeps) => runCursorHook(JSON.stringify(payload), d);

describe("payloads", () => {
  it("parses the documented shapes", () => {
    for (const p of [
      shellPayload("ls"),
      mcpPayload,
      readPayload("/w/a"),
      { ...common, hook_event_name: "afterShellExecution", command: "ls", output: "a\n", duration: 1234 },
    ])
      expect(CursorHookPayload.safeParse(p).success).toBe(true);
    expect(CursorHookPayload.safeParse({ ...common, hook_event_name: "beforeShellExecution" }).success).toBe(false);
  });

  it("names the MCP server from mcp.json by url or command; ambiguity stays unknown", () => {
    const servers = {
      a: { url: "u1" },
      b: { command: "npx", args: ["-y", "x"] },
      c: { url: "dup" },
      d: { url: "dup" },
    };
    expect(resolveMcpServer({ url: "u1" }, servers)).toBe("a");
    expect(resolveMcpServer({ command: "npx -y x" }, servers)).toBe("b");
    expect(resolveMcpServer({ url: "dup" }, servers)).toBeNull();
    expect(resolveMcpServer({}, servers)).toBeNull();
  });

  it("a card carries the call, never the file content, and says when the decision was inferred", () => {
    const p = CursorHookPayload.parse(shellPayload("git status && make")) as GatePayload;
    const call = callOf(p);
    const body = cardRequest(p, call, decideCursor(call, ctxOf([store(perms(ALLOW))], shell)));
    expect(body).toMatchObject({
      agent: "cursor",
      sessionId: "conv-123",
      tool: "Shell",
      input: { command: "git status && make", cwd: "/w", sandbox: false },
      agentAsked: false,
      inferred: true,
    });
    expect(body.reason).toMatch(/inferred:/);
    const r = CursorHookPayload.parse(readPayload("/w/.env")) as GatePayload;
    expect(JSON.stringify(cardRequest(r, callOf(r), decideCursor(callOf(r), ctxOf([], shell))))).not.toContain(
      "secret",
    );
  });
});

describe("what the connector answers on its own", () => {
  it.each([
    ["a documented allow", "allow", shellPayload("git status")],
    ["a deny", "deny", shellPayload("rm -rf build")],
    ["an inferred deny (segment)", "deny", shellPayload("git status; rm -rf x")],
  ])("%s → %s without a card", async (_, permission, payload) => {
    const calls: { method: string; path: string }[] = [];
    const r = await run(payload, deps(cockpit("pending", calls)));
    expect(r).toMatchObject({ via: "local", output: { permission } });
    expect(calls.every((c) => c.path === "/api/agent/v1/events")).toBe(true);
    if (permission === "deny")
      expect(r.output).toMatchObject({
        user_message: expect.stringMatching(/Shell\(rm\)/),
        agent_message: expect.any(String),
      });
  });

  it("MCP: the server is named from mcp.json, then Mcp(datadog:*) allows", async () => {
    expect(await run(mcpPayload, deps(cockpit("pending")))).toMatchObject({
      via: "local",
      output: { permission: "allow" },
    });
  });

  it("reads: a Read() deny blocks, anything else passes through (Cursor reads unprompted; the hook cannot ask)", async () => {
    expect(await run(readPayload("/w/.env.local"), deps(null))).toMatchObject({ output: { permission: "deny" } });
    expect(await run(readPayload("/w/src/a.ts"), deps(null))).toMatchObject({ output: { permission: "allow" } });
    expect(await run(readPayload("/w/docs/x.md"), deps(null))).toMatchObject({
      via: "local",
      output: { permission: "allow" },
    });
  });

  it("reads while a permissions file is broken: blocked (a deny might hide in it)", async () => {
    const stores = [store(perms(ALLOW, DENY)), store("{ broken", "/w/sub/.cursor/cli.json")];
    expect(await run(readPayload("/w/src/a.ts"), deps(null, { stores }))).toMatchObject({
      output: { permission: "deny", user_message: expect.stringMatching(/broken/) },
    });
  });
});

describe("what needs a person", () => {
  it.each([
    ["no entry covers it", shellPayload("make deploy")],
    ["an inferred allow (every segment allowed, docs silent)", shellPayload("git status && ls")],
    ["unparsable", shellPayload("ls 'unterminated")],
  ])("%s → a card; the person's allow allows", async (_, payload) => {
    const calls: { method: string; path: string; body?: unknown }[] = [];
    const r = await run(payload, deps(cockpit("allow", calls)));
    expect(r).toMatchObject({ via: "card", output: { permission: "allow" } });
    expect(calls.find((c) => c.method === "POST" && c.path === "/api/agent/v1/cards")?.body).toMatchObject({
      agent: "cursor",
      tool: "Shell",
    });
  });

  it("the person's deny denies with their message", async () => {
    expect((await run(shellPayload("make deploy"), deps(cockpit("deny")))).output).toMatchObject({
      permission: "deny",
      user_message: "not now",
    });
  });

  it("a card the cockpit settles by a rule a person saved: its answer", async () => {
    expect((await run(shellPayload("make deploy"), deps(cockpit("coalesce")))).output).toEqual({ permission: "allow" });
  });

  it.each([
    ["nobody answers in time", cockpit("pending")],
    ["the cockpit is unreachable", cockpit("down")],
    ["no token is configured", null],
  ])("%s → ask, never allow", async (_, api) => {
    const r = await run(shellPayload("make deploy"), deps(api));
    expect(r.output).toMatchObject({ permission: "ask" });
    const m = await run({ ...mcpPayload, url: "https://unknown.example/sse", tool_name: "drop_table" }, deps(api));
    expect(m.output).toMatchObject({ permission: "ask" });
  });
});

describe("failures never allow", () => {
  it.each([
    ["not JSON", "{", {}],
    ["an unknown event", JSON.stringify({ ...common, hook_event_name: "beforeTeleport" }), {}],
    [
      "a shell payload without command",
      JSON.stringify({ ...common, hook_event_name: "beforeShellExecution" }),
      { permission: "ask" },
    ],
    [
      "a read payload without a path",
      JSON.stringify({ ...common, hook_event_name: "beforeReadFile" }),
      { permission: "deny" },
    ],
  ])("%s", async (_, text, want) => {
    const r = await runCursorHook(text, deps(cockpit("allow")));
    expect(r.output).toMatchObject(want);
    expect((r.output as { permission?: string }).permission).not.toBe("allow");
  });

  it("settings that cannot be read: ask", async () => {
    const d = deps(cockpit("allow"));
    d.context = async () => {
      throw new Error("EACCES");
    };
    expect((await run(shellPayload("git status"), d)).output).toMatchObject({
      permission: "ask",
      user_message: expect.stringMatching(/EACCES/),
    });
  });

  it("after* events are recorded and answered with {}", async () => {
    const calls: { method: string; path: string; body?: unknown }[] = [];
    const r = await run(
      { ...common, hook_event_name: "afterShellExecution", command: "ls", output: "x", duration: 3 },
      deps(cockpit("allow", calls)),
    );
    expect(r).toEqual({ output: {}, via: "record" });
    expect(calls[0]).toMatchObject({
      path: "/api/agent/v1/events",
      body: { agent: "cursor", events: [{ kind: "post_tool_use", tool: "Shell", input: { command: "ls" } }] },
    });
  });

  it("an unsettled or aborted card is ask", () => {
    expect(outputForCard({ status: "aborted", settlement: null })).toMatchObject({ permission: "ask" });
    expect(outputForCard({ status: "expired", settlement: { outcome: "allow" } })).toMatchObject({
      permission: "deny",
    });
  });

  it("an inferred allow is never answered locally", () => {
    const p = CursorHookPayload.parse(shellPayload("git log | ls")) as GatePayload;
    const d = decideCursor(callOf(p), ctxOf([store(perms(ALLOW))], shell));
    expect(d).toMatchObject({ decision: "allow", inferred: true });
    expect(verdictFor(p, d).kind).toBe("card");
  });
});

describe("the cockpit's data folder through the hooks", () => {
  const guardedDeps = (api: Api | null) => {
    const d = deps(api, { allow: ["Shell(cat)", "Read(**)"] });
    const base = d.context;
    d.context = async (p) => ({ ...(await base(p)), protectedPaths: ["/w/.cockpit"] });
    return d;
  };

  it("a read is blocked (the read hook cannot ask)", async () => {
    expect((await run(readPayload("/w/.cockpit/credential.json"), guardedDeps(null))).output).toMatchObject({
      permission: "deny",
      user_message: expect.stringMatching(/needs a person/),
    });
  });

  it("a shell command becomes a card even though Shell(cat) allows it", async () => {
    const calls: { method: string; path: string; body?: unknown }[] = [];
    const r = await run(shellPayload("cat .cockpit/credential.json"), guardedDeps(cockpit("pending", calls)));
    expect(r).toMatchObject({ via: "card", output: { permission: "ask" } });
    expect(calls.some((c) => c.path === "/api/agent/v1/cards")).toBe(true);
  });
});
