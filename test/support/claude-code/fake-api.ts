import http from "node:http";
import type { AddressInfo } from "node:net";

/** One tool call the stand-in model makes: Claude Code's tool name and input. */
export interface ScriptedCall {
  name: string;
  input: Record<string, unknown>;
}

/** What Claude Code sent back for one scripted call. */
export interface ToolResult {
  id: string;
  content: string;
  isError: boolean;
}

export interface FakeApi {
  /** For `ANTHROPIC_BASE_URL`. */
  url: string;
  /** Every request's path and body (model turns and Claude Code's side requests). */
  requests: { path: string; body: Record<string, unknown> }[];
  /** One entry per scripted call that came back, in order. */
  results: ToolResult[];
  close(): Promise<void>;
}

type Block = Record<string, unknown>;
type Message = { role: string; content: string | Block[] };

const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function event(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** The streamed answer of one model turn: one tool_use block, or one text block that ends the turn. */
function turn(id: string, model: unknown, call: ScriptedCall | null, toolUseId: string): string {
  const start = event("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  const blocks = call
    ? event("content_block_start", {
        index: 0,
        content_block: { type: "tool_use", id: toolUseId, name: call.name, input: {} },
      }) +
      event("content_block_delta", {
        index: 0,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
      })
    : event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "done" } });
  return (
    start +
    blocks +
    event("content_block_stop", { index: 0 }) +
    event("message_delta", {
      delta: { stop_reason: call ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 5 },
    }) +
    event("message_stop", {})
  );
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((c: Block) => (typeof c.text === "string" ? c.text : JSON.stringify(c))).join("\n");
  return JSON.stringify(content);
}

/**
 * A local stand-in for the Anthropic Messages API that plays a script: each model turn of the main
 * conversation makes the next scripted tool call (streamed as server-sent events, as the API does) and, once
 * the script is done, ends the turn with "done". Side requests without tools get a short text.
 */
export async function startFakeApi(script: ScriptedCall[]): Promise<FakeApi> {
  const requests: FakeApi["requests"] = [];
  const results: ToolResult[] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        // not JSON: recorded as empty
      }
      const url = req.url ?? "/";
      requests.push({ path: url, body });
      if (!url.startsWith("/v1/messages") || url.includes("count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      const id = `msg_${++counter}`;
      const tools = Array.isArray(body.tools) ? body.tools : [];
      const messages = (Array.isArray(body.messages) ? body.messages : []) as Message[];
      // Turns so far = tool results Claude Code sent back; the next scripted call is the one after them.
      const returned: ToolResult[] = [];
      for (const m of messages)
        if (m.role === "user" && Array.isArray(m.content))
          for (const b of m.content)
            if (b.type === "tool_result")
              returned.push({
                id: String(b.tool_use_id),
                content: textOf(b.content),
                isError: b.is_error === true,
              });
      const main = tools.length > 0;
      if (main && returned.length > results.length) results.splice(0, results.length, ...returned);
      if (!body.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id,
            type: "message",
            role: "assistant",
            model: body.model,
            content: [{ type: "text", text: "ok" }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage,
          }),
        );
        return;
      }
      const next = main ? (script[returned.length] ?? null) : null;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(turn(id, body.model, next, `toolu_oracle_${returned.length + 1}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    results,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
