import { describe, expect, it } from "vitest";
import { startFakeApi } from "./fake-api";
import { observe } from "./oracle";
import { DOCUMENTED, generateScenarios } from "./scenarios";
import { SHIMMED } from "./run";

// The pieces of the Claude Code oracle that run without Claude Code: the scripted Messages API and the
// reading of Claude Code's hooks. The real runs are by hand (npm run oracle:claude-code, e2e:claude-code).

/** The SSE events of one streamed answer, as `[type, data]`. */
function events(text: string): [string, Record<string, unknown>][] {
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      const [head, data] = block.split("\n");
      return [head!.replace("event: ", ""), JSON.parse(data!.replace("data: ", "")) as Record<string, unknown>];
    });
}

async function post(url: string, body: object) {
  const res = await fetch(`${url}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { type: res.headers.get("content-type"), text: await res.text() };
}

describe("the scripted Messages API", () => {
  it("streams one tool_use per turn, reads the tool results back, then ends the turn", async () => {
    const api = await startFakeApi([
      { name: "Bash", input: { command: "touch a" } },
      { name: "Read", input: { file_path: "/x" } },
    ]);
    try {
      const tools = [{ name: "Bash" }];
      const user = { role: "user", content: "go" };
      const first = await post(api.url, { model: "m", stream: true, tools, messages: [user] });
      expect(first.type).toBe("text/event-stream");
      const e1 = events(first.text);
      expect(e1.map(([t]) => t)).toEqual([
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ]);
      expect(e1[1]![1].content_block).toMatchObject({ type: "tool_use", id: "toolu_oracle_1", name: "Bash" });
      expect(JSON.parse((e1[2]![1].delta as { partial_json: string }).partial_json)).toEqual({ command: "touch a" });
      expect(e1[4]![1].delta).toMatchObject({ stop_reason: "tool_use" });

      const result = (id: string, content: string, isError = false) => ({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }],
      });
      const assistant = { role: "assistant", content: [{ type: "tool_use", id: "toolu_oracle_1" }] };
      const second = events(
        (
          await post(api.url, {
            stream: true,
            tools,
            messages: [user, assistant, result("toolu_oracle_1", "needs approval", true)],
          })
        ).text,
      );
      expect(second[1]![1].content_block).toMatchObject({ name: "Read", id: "toolu_oracle_2" });
      // A side request without tools does not advance the script.
      const side = events((await post(api.url, { stream: true, messages: [user] })).text);
      expect(side[1]![1].content_block).toMatchObject({ type: "text" });
      const third = events(
        (
          await post(api.url, {
            stream: true,
            tools,
            messages: [
              user,
              assistant,
              result("toolu_oracle_1", "needs approval", true),
              assistant,
              result("toolu_oracle_2", "1\tx"),
            ],
          })
        ).text,
      );
      expect(third[1]![1].content_block).toMatchObject({ type: "text" });
      expect(third[4]![1].delta).toMatchObject({ stop_reason: "end_turn" });
      expect(api.results).toEqual([
        { id: "toolu_oracle_1", content: "needs approval", isError: true },
        { id: "toolu_oracle_2", content: "1\tx", isError: false },
      ]);
    } finally {
      await api.close();
    }
  });
});

describe("what Claude Code did, from its hooks", () => {
  const pre = (n: number) => ({ hook_event_name: "PreToolUse", tool_use_id: `toolu_oracle_${n}` });
  const post = (n: number, failed = false) => ({
    hook_event_name: failed ? "PostToolUseFailure" : "PostToolUse",
    tool_use_id: `toolu_oracle_${n}`,
  });
  const asked = { hook_event_name: "PermissionRequest" };
  const result = (n: number, content: string) => ({ id: `toolu_oracle_${n}`, content, isError: true });

  it("asked, ran (also when the tool then failed), refused, refused in its input checks, or never reached", () => {
    const hooks = [pre(1), asked, pre(2), post(2), pre(3), post(3, true), pre(4)];
    const results = [
      result(1, ""),
      result(2, ""),
      result(3, "Exit code 1"),
      result(4, "denied"),
      result(5, "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>"),
      result(6, "<tool_use_error>Error: No such tool available: Glob.</tool_use_error>"),
    ];
    expect(observe(hooks, results, 6)).toEqual(["ask", "allow", "allow", "deny", "deny", "error"]);
  });
});

describe("scenarios", () => {
  it("are reproducible from their seed and use only harmless commands", () => {
    expect(generateScenarios(7, 5)).toEqual(generateScenarios(7, 5));
    expect(generateScenarios(7, 5)).not.toEqual(generateScenarios(8, 5));
    const harmless = new Set([
      ...SHIMMED,
      "echo",
      "true",
      "ls",
      "cat",
      "touch",
      "mkdir",
      "pwd",
      "head",
      "wc",
      "cd",
      "time",
      "command",
      "stdbuf",
      "makeself",
      "cargox",
      "find",
      "git",
      "rmdir",
    ]);
    for (const sc of [...DOCUMENTED, ...generateScenarios(1, 50)])
      for (const call of sc.calls) {
        if (call.name !== "Bash") continue;
        for (const part of String(call.input.command).split(/&&|\|\||[;|&\n]|\$\(/)) {
          const words = part
            .trim()
            .split(/\s+/)
            .filter((w) => !/^\w+=/.test(w));
          if (!words[0] || words[0] === ")") continue;
          expect(harmless, `${sc.id}: ${call.input.command}`).toContain(words[0]);
          if (words[0] === "find") expect(words[1]).toBe("./no-such-dir");
        }
      }
  });
});
