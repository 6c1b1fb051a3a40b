/**
 * The Codex connector against Codex's own hook contract: the payloads of openai/codex
 * `codex-rs/hooks/schema/generated/*.command.input.schema.json` (copied in test/fixtures/codex-hooks-schema) and the
 * outputs of `permission-request.command.output.schema.json`, plus `connect` / `disconnect` on real folders. The
 * sample payloads follow `codex-rs/core/tests/suite/hooks.rs` (a `shell_command` call's raw command string, an
 * `apply_patch` patch, no `tool_use_id` on PermissionRequest).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Ajv from "ajv";
import { parse as zodParse, safeParse } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CardOutcome, CardRequest, CockpitPort, ToolUseEvent } from "../types";
import { connector } from "./connector";

const SCHEMAS = path.resolve(import.meta.dirname, "../../../test/fixtures/codex-hooks-schema");
const ajv = new Ajv({ strict: false });
const schema = (name: string) =>
  ajv.compile(JSON.parse(readFileSync(path.join(SCHEMAS, `${name}.schema.json`), "utf8")) as object);
const input = {
  PermissionRequest: schema("permission-request.command.input"),
  PreToolUse: schema("pre-tool-use.command.input"),
  PostToolUse: schema("post-tool-use.command.input"),
  UserPromptSubmit: schema("user-prompt-submit.command.input"),
};
const permissionOutput = schema("permission-request.command.output");

const common = {
  session_id: "0199a3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b",
  turn_id: "turn-3",
  transcript_path: "/home/u/.codex/sessions/2026/04/rollout.jsonl",
  cwd: "/home/u/work",
  model: "gpt-5-codex",
  permission_mode: "default",
};
const PAYLOADS = {
  shell: {
    ...common,
    hook_event_name: "PermissionRequest",
    tool_name: "Bash",
    tool_input: { command: "rm -f /tmp/permissionrequest-shell-command-marker", description: "clean up" },
  },
  patch: {
    ...common,
    transcript_path: null,
    hook_event_name: "PermissionRequest",
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n" },
  },
  pre: {
    ...common,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_use_id: "call_1",
    tool_input: { command: "ls -la" },
  },
  post: {
    ...common,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_use_id: "call_1",
    tool_input: { command: "ls -la" },
    tool_response: { output: "total 0\n", exit_code: 0 },
  },
  prompt: { ...common, hook_event_name: "UserPromptSubmit", prompt: "fix the build" },
} as const;

/** A port that records what the connector asked and answers as told. */
function fakePort(answer: {
  admit?: Awaited<ReturnType<CockpitPort["admit"]>>;
  outcome?: CardOutcome;
  fail?: boolean;
}) {
  const calls = {
    admitted: [] as CardRequest[],
    aborted: [] as string[],
    messages: [] as string[],
    uses: [] as ToolUseEvent[],
  };
  const port: CockpitPort = {
    async admit(card) {
      if (answer.fail) throw new Error("connect ECONNREFUSED 127.0.0.1:3000");
      calls.admitted.push(card);
      return answer.admit ?? { status: "pending", id: "card-1" };
    },
    async wait() {
      return answer.outcome ?? { status: "pending", settlement: null };
    },
    async abort(id) {
      calls.aborted.push(id);
    },
    async userMessage(sessionId) {
      calls.messages.push(sessionId);
    },
    async toolUse(_agent, event) {
      calls.uses.push(event);
    },
  };
  return { port, calls };
}

const ctx = (port: CockpitPort) => ({ port, waitSeconds: 5, signal: new AbortController().signal });
const parse = (p: unknown) => zodParse(connector.payload, p);

describe("codex connector: Codex's hook payloads", () => {
  it("accepts exactly the sample payloads Codex's input schemas accept", () => {
    for (const p of Object.values(PAYLOADS)) {
      expect(input[p.hook_event_name](p)).toBe(true);
      expect(safeParse(connector.payload, p).success).toBe(true);
    }
    // What the schemas refuse, the connector refuses too (it then prints nothing: Codex's own prompt decides).
    const { turn_id: _t, ...noTurn } = PAYLOADS.prompt;
    for (const bad of [
      noTurn,
      { ...PAYLOADS.shell, tool_input: {} },
      { ...PAYLOADS.prompt, permission_mode: "yolo" },
      { ...common, hook_event_name: "Stop" },
    ]) {
      expect(input.UserPromptSubmit(bad) || input.PermissionRequest(bad)).toBe(false);
      expect(safeParse(connector.payload, bad).success).toBe(false);
    }
  });

  it("turns a PermissionRequest into a card Codex asked for (the floor), showing the command as Codex shows it", async () => {
    const { port, calls } = fakePort({
      outcome: { status: "allowed", settlement: { outcome: "allow", message: null, by: "ana" } },
    });
    const out = await connector.handle(parse(PAYLOADS.shell), ctx(port));
    expect(calls.admitted).toEqual([
      {
        agent: "codex",
        sessionId: common.session_id,
        cwd: "/home/u/work",
        tool: "Bash",
        input: { command: "rm -f /tmp/permissionrequest-shell-command-marker" },
        reason: "clean up",
        agentAsked: true,
      },
    ]);
    expect(out).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });
    expect(permissionOutput(out)).toBe(true);
  });

  it("answers a deny with the person's message (or who denied), in Codex's output schema", async () => {
    const denied = (message: string | null) =>
      fakePort({ outcome: { status: "denied", settlement: { outcome: "deny", message, by: "ana@example.com" } } }).port;
    const withMessage = await connector.handle(parse(PAYLOADS.patch), ctx(denied("not on main")));
    expect(withMessage).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "not on main" },
      },
    });
    const bare = await connector.handle(parse(PAYLOADS.patch), ctx(denied(null)));
    expect(bare).toMatchObject({
      hookSpecificOutput: { decision: { message: "Denied in the permissions cockpit by ana@example.com." } },
    });
    expect(permissionOutput(withMessage)).toBe(true);
    expect(permissionOutput(bare)).toBe(true);
    // Settled by policy at admission (a stricter cockpit deny): Codex is told why.
    const settled = fakePort({
      admit: { status: "settled", decision: "deny", reason: "`rm -f` rejected: policy" },
    }).port;
    expect(await connector.handle(parse(PAYLOADS.shell), ctx(settled))).toMatchObject({
      hookSpecificOutput: { decision: { behavior: "deny", message: "`rm -f` rejected: policy" } },
    });
  });

  it("prints nothing when nobody answers, the card is aborted, admission is refused or the cockpit is unreachable", async () => {
    const pending = fakePort({});
    expect(await connector.handle(parse(PAYLOADS.shell), ctx(pending.port))).toBeNull();
    expect(pending.calls.aborted).toEqual(["card-1"]);
    const aborted = fakePort({ outcome: { status: "aborted", settlement: null } });
    expect(await connector.handle(parse(PAYLOADS.shell), ctx(aborted.port))).toBeNull();
    const refused = fakePort({ admit: { status: "refused", why: "no workspace" } });
    expect(await connector.handle(parse(PAYLOADS.shell), ctx(refused.port))).toBeNull();
    await expect(connector.handle(parse(PAYLOADS.shell), ctx(fakePort({ fail: true }).port))).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it("records Pre/PostToolUse in the audit log and ends an absence hold on a user prompt, printing nothing", async () => {
    const { port, calls } = fakePort({});
    expect(await connector.handle(parse(PAYLOADS.pre), ctx(port))).toBeNull();
    expect(await connector.handle(parse(PAYLOADS.post), ctx(port))).toBeNull();
    expect(await connector.handle(parse(PAYLOADS.prompt), ctx(port))).toBeNull();
    expect(calls.uses).toEqual([
      {
        phase: "pre",
        sessionId: common.session_id,
        tool: "Bash",
        input: { command: "ls -la" },
        toolUseId: "call_1",
        cwd: "/home/u/work",
      },
      {
        phase: "post",
        sessionId: common.session_id,
        tool: "Bash",
        input: { command: "ls -la" },
        toolUseId: "call_1",
        cwd: "/home/u/work",
      },
    ]);
    expect(calls.messages).toEqual([common.session_id]);
    expect(calls.admitted).toEqual([]);
  });
});

describe("codex connector: connect / disconnect", () => {
  let root: string;
  let home: string;
  let ws: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "codex-connect-"));
    home = path.join(root, "home");
    ws = path.join(root, "ws");
    await mkdir(path.join(ws, ".git"), { recursive: true });
    await mkdir(home, { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));
  const target = (user = false) => ({
    workspace: ws,
    home,
    user,
    url: "http://localhost:3000",
    cliPath: "/opt/cockpit/bin/cockpit.mjs",
  });

  it("installs exactly the cockpit's hooks in the project's .codex/hooks.json, keeps every other byte, and says the project needs trust", async () => {
    const file = path.join(ws, ".codex", "hooks.json");
    const mine = `{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n`;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, mine);
    const r = await connector.connect(target());
    expect(r).toMatchObject({
      file,
      changed: true,
      events: ["PermissionRequest", "PreToolUse", "PostToolUse", "UserPromptSubmit"],
    });
    expect(r.next).toMatch(/COCKPIT_TOKEN/);
    expect(r.next).toMatch(/only in a trusted project/);
    const installed = JSON.parse(await readFile(file, "utf8"));
    expect(installed.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "say done" }] }]);
    expect(installed.hooks.PermissionRequest[0].hooks[0]).toMatchObject({
      type: "command",
      command: 'COCKPIT_URL=http://localhost:3000 node "/opt/cockpit/bin/cockpit.mjs" hook codex',
      timeout: 600,
    });
    expect((await connector.connect(target())).changed).toBe(false);
    expect(await connector.disconnect(target())).toMatchObject({ file, changed: true });
    expect(await readFile(file, "utf8")).toBe(mine);
  });

  it("installs in ~/.codex/hooks.json with --user, and refuses a file Codex could not read", async () => {
    await mkdir(path.join(home, ".codex"), { recursive: true });
    await writeFile(
      path.join(home, ".codex", "config.toml"),
      `[projects.${JSON.stringify(ws)}]\ntrust_level = "trusted"\n`,
    );
    const r = await connector.connect(target(true));
    expect(r.file).toBe(path.join(home, ".codex", "hooks.json"));
    expect(r.next).not.toMatch(/only in a trusted project/);
    const broken = path.join(ws, ".codex", "hooks.json");
    await mkdir(path.dirname(broken), { recursive: true });
    await writeFile(broken, '{ // mine\n "hooks": {} }');
    await expect(connector.connect(target())).rejects.toThrow(/never overwritten/);
    expect(await readFile(broken, "utf8")).toBe('{ // mine\n "hooks": {} }');
  });
});
