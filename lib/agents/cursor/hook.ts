/**
 * Cursor's hook protocol, pure: payloads in (zod), calls and cards out, answers back as Cursor's hook output.
 * Source: https://cursor.com/docs/hooks ("Common schema", "beforeShellExecution / beforeMCPExecution",
 * "beforeReadFile"): input on stdin as JSON, output `{"permission":"allow"|"deny"|"ask","user_message","agent_message"}`;
 * `beforeReadFile` answers allow or deny only.
 *
 * Cursor runs these hooks before EVERY shell command, MCP call and file read — not only when it would ask — so the
 * connector decides on its own only where that cannot be more permissive than Cursor: a deny any entry gives, and an
 * allow the documented matching gives. Everything else becomes a card a person answers; no answer is `ask`.
 */
import { z } from "zod";
import type { CursorCall } from "./call";
import type { CursorDecision } from "./decide";

const Base = {
  conversation_id: z.string().min(1).max(300),
  generation_id: z.string().max(300).optional(),
  model: z.string().max(300).optional(),
  cursor_version: z.string().max(100).optional(),
  workspace_roots: z.array(z.string().max(4096)).max(100).optional(),
  user_email: z.string().max(500).nullable().optional(),
};

export const BeforeShellPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("beforeShellExecution"),
  command: z.string().max(100_000),
  cwd: z.string().max(4096).optional(),
  sandbox: z.boolean().optional(),
});
export const BeforeMcpPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("beforeMCPExecution"),
  tool_name: z.string().min(1).max(300),
  /** The docs say "<json params>" (a JSON string); observed payloads also carry an object. */
  tool_input: z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown())]).optional(),
  url: z.string().max(4096).optional(),
  command: z.string().max(100_000).optional(),
});
export const BeforeReadPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("beforeReadFile"),
  file_path: z.string().min(1).max(4096),
  content: z.string().optional(),
});
export const AfterShellPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("afterShellExecution"),
  command: z.string().max(100_000),
  output: z.string().optional(),
  duration: z.number().optional(),
});
export const AfterMcpPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("afterMCPExecution"),
  tool_name: z.string().min(1).max(300),
  tool_input: z.unknown().optional(),
  result_json: z.string().optional(),
  duration: z.number().optional(),
});
export const AfterEditPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("afterFileEdit"),
  file_path: z.string().min(1).max(4096),
  edits: z.array(z.unknown()).optional(),
});

export const CursorHookPayload = z.discriminatedUnion("hook_event_name", [
  BeforeShellPayload,
  BeforeMcpPayload,
  BeforeReadPayload,
  AfterShellPayload,
  AfterMcpPayload,
  AfterEditPayload,
]);
export type CursorHookPayload = z.infer<typeof CursorHookPayload>;
export type GatePayload = Extract<
  CursorHookPayload,
  { hook_event_name: "beforeShellExecution" | "beforeMCPExecution" | "beforeReadFile" }
>;

export const isGate = (p: CursorHookPayload): p is GatePayload => p.hook_event_name.startsWith("before");

/** Cursor's hook output. `{}` for the after* events, which Cursor does not read. */
export type CursorHookOutput =
  { permission: "allow" | "deny" | "ask"; user_message?: string; agent_message?: string } | Record<string, never>;

/** An MCP server as `.cursor/mcp.json` / `~/.cursor/mcp.json` list it (`mcpServers.<name>`). */
export interface McpServerEntry {
  url?: string;
  command?: string;
  args?: string[];
}

/**
 * The server of a beforeMCPExecution call: the payload names only the tool and the server's `url` or `command`, so
 * match those against mcp.json; ambiguous or unknown stays null (then allow needs `Mcp(*:tool)`).
 */
export function resolveMcpServer(
  p: { url?: string; command?: string },
  servers: Record<string, McpServerEntry>,
): string | null {
  const hits = Object.entries(servers).filter(([, s]) => {
    if (p.url && s.url) return s.url === p.url;
    if (p.command && s.command)
      return p.command === s.command || p.command === [s.command, ...(s.args ?? [])].join(" ");
    return false;
  });
  return hits.length === 1 ? hits[0][0] : null;
}

function mcpArguments(input: unknown): unknown {
  if (typeof input !== "string") return input ?? {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** The call the engine decides for a gate payload. */
export function callOf(p: GatePayload, servers: Record<string, McpServerEntry> = {}): CursorCall {
  switch (p.hook_event_name) {
    case "beforeShellExecution":
      return { tool: "Shell", command: p.command, ...(p.cwd ? { cwd: p.cwd } : {}) };
    case "beforeMCPExecution":
      return {
        tool: "Mcp",
        server: resolveMcpServer(p, servers),
        name: p.tool_name,
        arguments: mcpArguments(p.tool_input),
      };
    case "beforeReadFile":
      return { tool: "Read", path: p.file_path };
  }
}

/**
 * The card a person answers (body of `POST /api/agent/v1/cards`). The hook fires before every call, so Cursor has
 * not necessarily decided to ask: `agentAsked: false`. File contents never leave the machine.
 */
export function cardRequest(p: GatePayload, call: CursorCall, decision: CursorDecision) {
  const input: Record<string, unknown> =
    call.tool === "Shell"
      ? {
          command: call.command,
          ...(call.cwd ? { cwd: call.cwd } : {}),
          ...(p.hook_event_name === "beforeShellExecution" && p.sandbox !== undefined ? { sandbox: p.sandbox } : {}),
        }
      : call.tool === "Mcp"
        ? {
            server: call.server,
            tool: call.name,
            arguments: call.arguments,
            ...(p.hook_event_name === "beforeMCPExecution" ? { url: p.url, command: p.command } : {}),
          }
        : { path: "path" in call ? call.path : "" };
  const reason = [decision.reason, ...(decision.inferred ? [`inferred: ${decision.inferredWhy.join("; ")}`] : [])].join(
    " — ",
  );
  return {
    agent: "cursor",
    sessionId: p.conversation_id,
    originPath: "/root",
    cwd: call.tool === "Shell" ? call.cwd : p.workspace_roots?.[0],
    tool: call.tool,
    input,
    agentAsked: false,
    reason,
    inferred: decision.inferred,
  };
}

export type Verdict = { kind: "answer"; output: CursorHookOutput; why: string } | { kind: "card"; why: string };

const deny = (why: string): CursorHookOutput => ({
  permission: "deny",
  user_message: why,
  agent_message: `${why}. Do not retry it in another form; ask the user.`,
});
export const askOutput = (why: string): CursorHookOutput => ({ permission: "ask", user_message: why });

/**
 * What the connector may answer without a person. Never more permissive than Cursor: an allow only where the
 * documented matching allows (not an inferred allow), a deny wherever an entry denies (inferred ones too: stricter).
 */
export function verdictFor(p: GatePayload, d: CursorDecision): Verdict {
  if (d.decision === "deny")
    return {
      kind: "answer",
      output: deny(
        `Denied by ${d.rule ?? "Cursor's permissions"} (${d.store ?? "cockpit"})${d.inferred ? " — inferred" : ""}: ${d.reason}`,
      ),
      why: d.reason,
    };
  if (p.hook_event_name === "beforeReadFile") {
    if (d.decision === "allow") return { kind: "answer", output: { permission: "allow" }, why: d.reason };
    // Cursor reads without a prompt unless a deny covers the file, and this hook cannot ask: pass through. A store
    // the cockpit cannot read might hold a Read() deny, so that case blocks (fail closed).
    if (d.protected)
      return {
        kind: "answer",
        output: deny(
          `Reading the permissions cockpit's own data needs a person, and Cursor's read hook cannot ask: ${d.reason}`,
        ),
        why: d.reason,
      };
    if (d.step === "invalid-store")
      return {
        kind: "answer",
        output: deny(`Read blocked while a Cursor permissions file is broken: ${d.reason}`),
        why: d.reason,
      };
    return {
      kind: "answer",
      output: { permission: "allow" },
      why: "no Read() deny covers the file: Cursor reads it without a prompt",
    };
  }
  if (d.decision === "allow" && !d.inferred) return { kind: "answer", output: { permission: "allow" }, why: d.reason };
  return {
    kind: "card",
    why: d.decision === "allow" ? `inferred allow needs a person: ${d.inferredWhy.join("; ")}` : d.reason,
  };
}

/** A settled (or unsettled) card as `GET /api/agent/v1/cards/:id` returns it. */
export interface CardOutcome {
  status: string;
  settlement: { outcome: "allow" | "deny"; message?: string | null; by?: string | null } | null;
}

/** Cursor's output for a card's outcome: a person's allow or deny; anything else (timeout, aborted) hands back to Cursor. */
export function outputForCard(o: CardOutcome): CursorHookOutput {
  const s = o.settlement;
  if (!s || o.status === "pending" || o.status === "aborted")
    return askOutput("The permissions cockpit had no answer in time; Cursor decides.");
  if (s.outcome === "allow" && (o.status === "allowed" || o.status === "coalesced")) return { permission: "allow" };
  return deny(s.message || `Denied in the permissions cockpit${s.by ? ` by ${s.by}` : ""}`);
}

/** When nothing could be decided (bad payload, cockpit unreachable, any error): never allow. */
export function fallbackOutput(event: string | undefined, why: string): CursorHookOutput {
  if (event === "beforeReadFile") return deny(`The permissions cockpit could not check this read (${why})`);
  if (event === "beforeShellExecution" || event === "beforeMCPExecution")
    return askOutput(`The permissions cockpit could not decide (${why}); Cursor decides.`);
  return {};
}

/** The audit event (`POST /api/agent/v1/events`) for a payload and, for gates, what was answered. */
export function auditEvent(p: CursorHookPayload, answer?: { output: CursorHookOutput; decision?: CursorDecision }) {
  const kind = p.hook_event_name.startsWith("after") ? ("post_tool_use" as const) : ("decision" as const);
  const tool = p.hook_event_name.includes("Shell")
    ? "Shell"
    : p.hook_event_name.includes("MCP")
      ? "Mcp"
      : p.hook_event_name === "afterFileEdit"
        ? "Write"
        : "Read";
  const input: Record<string, unknown> =
    "command" in p && p.hook_event_name.includes("Shell")
      ? { command: p.command }
      : "tool_name" in p
        ? { tool: p.tool_name }
        : "file_path" in p
          ? { path: p.file_path }
          : {};
  const permission = answer && "permission" in answer.output ? answer.output.permission : undefined;
  return {
    kind,
    sessionId: p.conversation_id,
    tool,
    input,
    ...(permission ? { outcome: permission } : {}),
    ...(answer?.decision?.rule
      ? { rule: answer.decision.rule, store: answer.decision.store ?? undefined, source: "config" as const }
      : {}),
    ...(answer?.decision
      ? { reason: `${answer.decision.reason}${answer.decision.inferred ? " (inferred)" : ""}`.slice(0, 2000) }
      : {}),
    ...("cwd" in p && typeof p.cwd === "string" && p.cwd ? { cwd: p.cwd } : {}),
  };
}

/** The workspace a hook payload belongs to: Cursor's first workspace root, else the command's cwd. */
export function workspaceOf(p: GatePayload, fallback: string): { workspace: string; cwd: string } {
  const workspace =
    p.workspace_roots?.[0] ?? (p.hook_event_name === "beforeShellExecution" ? p.cwd : undefined) ?? fallback;
  const cwd = p.hook_event_name === "beforeShellExecution" && p.cwd ? p.cwd : workspace;
  return { workspace, cwd };
}
