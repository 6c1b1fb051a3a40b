import { getNodeValue, parse, parseTree, type Node, type ParseError } from "jsonc-parser";
import { z } from "zod";
import type { CockpitDecision } from "./engine";
import type { GeminiCall } from "./types";

/**
 * The pure half of the Gemini CLI connector: hook entries in `settings.json`, Gemini's hook payloads, and the
 * answers a hook prints. Facts from @google/gemini-cli-core 0.61.0 (hooks/types.ts, hooks/hookAggregator.ts,
 * hooks/hookRunner.ts, scheduler/hook-utils.ts, scheduler/scheduler.ts) and docs/hooks/reference.md.
 *
 * What a BeforeTool hook can do (scheduler.ts `_processToolCall`): the hook runs BEFORE Gemini's policy check.
 * `decision: "deny"`/`"block"` (or exit code 2) blocks the call; `decision: "ask"` forces Gemini's own terminal
 * prompt even where its policy would allow; `continue: false` stops the agent; `hookSpecificOutput.tool_input`
 * rewrites the arguments. `decision: "allow"` changes nothing — the policy still runs and still asks. So a
 * Gemini call can be DENIED from the phone, but APPROVED only in Gemini's terminal.
 */

export const HOOK_NAME = "permissions-cockpit";
export const GEMINI_HOOK_EVENTS = ["BeforeTool", "AfterTool", "BeforeAgent", "Notification"] as const;
export type GeminiHookEvent = (typeof GEMINI_HOOK_EVENTS)[number];

/** Gemini hook timeouts are milliseconds (default 60000). */
export const AUDIT_HOOK_TIMEOUT_MS = 10_000;
/** How long the BeforeTool hook waits by default for a remote deny before Gemini prompts in its terminal. */
export const DEFAULT_WAIT_SECONDS = 60;

export interface GeminiConnectOptions {
  /** The cockpit's base URL. */
  url: string;
  /** Absolute path of bin/cockpit.mjs. */
  cliPath: string;
  /** Seconds the BeforeTool hook waits for an answer from the phone. */
  waitSeconds?: number;
}

type Handler = Record<string, unknown>;
type Group = { matcher?: string; sequential?: boolean; hooks?: Handler[] };

/**
 * The command Gemini runs for one event. The payload names its event, so one command serves them all; the BeforeTool
 * hook waits `COCKPIT_HOOK_WAIT` seconds for a remote deny (Gemini's terminal prompt appears only after it returns).
 */
export function hookCommand(
  o: Pick<GeminiConnectOptions, "url" | "cliPath" | "waitSeconds">,
  event: GeminiHookEvent,
): string {
  const wait = event === "BeforeTool" ? ` COCKPIT_HOOK_WAIT=${o.waitSeconds ?? DEFAULT_WAIT_SECONDS}` : "";
  return `COCKPIT_URL=${o.url.replace(/\/$/, "")}${wait} node ${JSON.stringify(o.cliPath)} hook gemini`;
}

/** The handler `cockpit connect gemini` writes for one event. */
export function cockpitHandler(o: GeminiConnectOptions, event: GeminiHookEvent): Handler {
  const wait = o.waitSeconds ?? DEFAULT_WAIT_SECONDS;
  return {
    type: "command",
    name: HOOK_NAME,
    command: hookCommand(o, event),
    timeout: event === "BeforeTool" ? (wait + 15) * 1000 : AUDIT_HOOK_TIMEOUT_MS,
    description:
      event === "BeforeTool"
        ? "Permissions Cockpit: mirrors Gemini's prompts; a collaborator can deny from the phone (approval stays in the terminal)"
        : "Permissions Cockpit: audit log",
  };
}

/** A handler `connect` wrote, whatever URL or path it used. */
export function isCockpitHandler(h: Handler): boolean {
  return (
    h.type === "command" &&
    typeof h.command === "string" &&
    / hook gemini( [A-Za-z]+)?$/.test(h.command) &&
    h.command.includes("cockpit")
  );
}

function parseSettingsText(text: string, file: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length || !value || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${file} is not a JSON object; fix it first (it is never overwritten)`);
  }
  return value as Record<string, unknown>;
}

/** The file's indentation unit and line ending, so inserted JSON looks like the rest. */
function formatting(text: string) {
  const indent = /\n([ \t]+)["{[]/.exec(text)?.[1] ?? "  ";
  return { unit: indent.includes("\t") ? "\t" : indent, eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

const lineIndent = (text: string, offset: number) =>
  /^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", offset - 1) + 1))![0];

/**
 * Insert a value as the last member of an object (with a key) or array, touching no other byte: the new text goes
 * right after the last member (or inside empty brackets), indented one level deeper than the container's line.
 */
function insertMember(text: string, container: Node, key: string | null, value: unknown): string {
  const fmt = formatting(text);
  const base = lineIndent(text, container.offset);
  const inner = base + fmt.unit;
  const body = JSON.stringify(value, null, fmt.unit)
    .split("\n")
    .join(fmt.eol + inner);
  const member = (key === null ? "" : `${JSON.stringify(key)}: `) + body;
  const kids = container.children ?? [];
  if (kids.length > 0) {
    const last = kids[kids.length - 1];
    const at = last.offset + last.length;
    return text.slice(0, at) + "," + fmt.eol + inner + member + text.slice(at);
  }
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  return text.slice(0, open) + fmt.eol + inner + member + fmt.eol + base + text.slice(close);
}

/** Remove one member (an array element, or an object property node) with the comma and line break that joined it. */
export function removeMember(text: string, container: Node, member: Node): string {
  const kids = container.children ?? [];
  const i = kids.findIndex((k) => k.offset === member.offset && k.length === member.length);
  if (i < 0) return text;
  if (i > 0) {
    const prev = kids[i - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(member.offset + member.length);
  }
  if (kids.length > 1) return text.slice(0, member.offset) + text.slice(kids[1].offset);
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  return text.slice(0, open) + text.slice(close);
}

const root = (text: string) => {
  const tree = parseTree(text);
  if (!tree || tree.type !== "object") throw new Error("settings.json is not a JSON object");
  return tree;
};
const propertyNode = (obj: Node, key: string) => obj.children?.find((p) => p.children?.[0]?.value === key);

/**
 * Add the cockpit's hooks to a settings.json text (JSONC), keeping every other byte: the user's hooks stay as
 * written, an earlier cockpit install is replaced, and disconnecting gives the original bytes back.
 */
export function installHooks(text: string, o: GeminiConnectOptions, file = "settings.json"): string {
  parseSettingsText(text, file);
  let out = removeHooks(text.trim() ? text : "{}\n", file).text;
  const groups: Record<GeminiHookEvent, Group> = {
    BeforeTool: { matcher: "*", hooks: [cockpitHandler(o, "BeforeTool")] },
    AfterTool: { matcher: "*", hooks: [cockpitHandler(o, "AfterTool")] },
    BeforeAgent: { hooks: [cockpitHandler(o, "BeforeAgent")] },
    Notification: { matcher: "ToolPermission", hooks: [cockpitHandler(o, "Notification")] },
  };
  const hooksProp = propertyNode(root(out), "hooks");
  if (!hooksProp || hooksProp.children?.[1]?.type !== "object") {
    if (hooksProp) throw new Error(`${file}: "hooks" is not an object; fix it first (it is never overwritten)`);
    return insertMember(out, root(out), "hooks", Object.fromEntries(GEMINI_HOOK_EVENTS.map((e) => [e, [groups[e]]])));
  }
  for (const event of GEMINI_HOOK_EVENTS) {
    const hooksObj = propertyNode(root(out), "hooks")!.children![1];
    const prop = propertyNode(hooksObj, event);
    const arr = prop?.children?.[1];
    if (arr && arr.type === "array") out = insertMember(out, arr, null, groups[event]);
    else if (prop) throw new Error(`${file}: hooks.${event} is not a list; fix it first (it is never overwritten)`);
    else out = insertMember(out, hooksObj, event, [groups[event]]);
  }
  return out;
}

/** Remove exactly the handlers `installHooks` wrote (and what became empty by that); nothing else changes. */
export function removeHooks(text: string, file = "settings.json"): { text: string; removed: number } {
  parseSettingsText(text, file);
  if (!text.trim()) return { text, removed: 0 };
  let out = text;
  let removed = 0;
  const hooksObj = () => propertyNode(root(out), "hooks")?.children?.[1];
  if (hooksObj()?.type !== "object") return { text, removed: 0 };
  for (const event of GEMINI_HOOK_EVENTS) {
    const prop = propertyNode(hooksObj()!, event);
    const arr = prop?.children?.[1];
    if (!prop || arr?.type !== "array") continue;
    const groups = (getNodeValue(arr) as Group[]) ?? [];
    const mine = groups.reduce((n, g) => n + (g?.hooks ?? []).filter(isCockpitHandler).length, 0);
    if (mine === 0) continue;
    removed += mine;
    const onlyMine = groups.every((g) => (g?.hooks ?? []).length > 0 && (g.hooks ?? []).every(isCockpitHandler));
    if (onlyMine) {
      const h = hooksObj()!;
      out = removeMember(out, h, propertyNode(h, event)!);
      continue;
    }
    for (let gi = groups.length - 1; gi >= 0; gi--) {
      const hs = groups[gi]?.hooks ?? [];
      if (!hs.some(isCockpitHandler)) continue;
      const arrNow = propertyNode(hooksObj()!, event)!.children![1];
      const groupNode = arrNow.children![gi];
      if (hs.every(isCockpitHandler)) {
        out = removeMember(out, arrNow, groupNode);
        continue;
      }
      for (let hi = hs.length - 1; hi >= 0; hi--) {
        if (!isCockpitHandler(hs[hi])) continue;
        const g = propertyNode(root(out), "hooks")!.children![1];
        const list = propertyNode(propertyNode(g, event)!.children![1].children![gi], "hooks")!.children![1];
        out = removeMember(out, list, list.children![hi]);
      }
    }
  }
  const h = hooksObj();
  if (removed > 0 && h && (h.children?.length ?? 0) === 0)
    out = removeMember(out, root(out), propertyNode(root(out), "hooks")!);
  return { text: out, removed };
}

// ---- payloads (docs/hooks/reference.md "Base input schema" and the per-event fields) ----

const Base = {
  session_id: z.string(),
  transcript_path: z.string().optional(),
  cwd: z.string(),
  timestamp: z.string().optional(),
};

export const McpContext = z.looseObject({
  server_name: z.string(),
  tool_name: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
});

export const BeforeToolPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("BeforeTool"),
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  mcp_context: McpContext.optional(),
  original_request_name: z.string().optional(),
});
export const AfterToolPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("AfterTool"),
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_response: z.looseObject({
    llmContent: z.unknown().optional(),
    returnDisplay: z.unknown().optional(),
    error: z.unknown().optional(),
  }),
  mcp_context: McpContext.optional(),
  original_request_name: z.string().optional(),
});
export const BeforeAgentPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("BeforeAgent"),
  prompt: z.string(),
});
export const NotificationPayload = z.looseObject({
  ...Base,
  hook_event_name: z.literal("Notification"),
  notification_type: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export const GeminiHookPayload = z.discriminatedUnion("hook_event_name", [
  BeforeToolPayload,
  AfterToolPayload,
  BeforeAgentPayload,
  NotificationPayload,
]);
export type GeminiHookPayload = z.infer<typeof GeminiHookPayload>;
export type BeforeToolPayload = z.infer<typeof BeforeToolPayload>;

/** The call a BeforeTool/AfterTool payload describes, in the cockpit's call shape. */
export function callOf(p: z.infer<typeof BeforeToolPayload> | z.infer<typeof AfterToolPayload>): GeminiCall {
  return { tool: p.tool_name, input: p.tool_input, ...(p.mcp_context ? { server: p.mcp_context.server_name } : {}) };
}

/** What the connector does with a BeforeTool call, given what Gemini will decide and the cockpit's own rules. */
export type BeforeToolPlan =
  /** Gemini will run it without asking and the cockpit agrees: record it, answer nothing. */
  | { kind: "pass"; audit: "allowed by Gemini" | "denied by Gemini" }
  /** Gemini will prompt in its terminal: mirror it as a deny-only card and wait for a remote deny. */
  | { kind: "card"; card: GeminiCardSpec }
  /** The cockpit's own rules deny it. */
  | { kind: "deny"; reason: string }
  /** The cockpit's own rules want a person although Gemini would allow: force Gemini's terminal prompt. */
  | { kind: "force-ask"; reason: string };

export interface GeminiCardSpec {
  agent: "gemini";
  sessionId: string;
  cwd: string;
  tool: string;
  input: Record<string, unknown>;
  reason: string;
  /** Shown on the card: what a person can do from here. */
  capability: "deny-only";
  note: string;
}

export const DENY_ONLY_NOTE =
  "Gemini CLI lets a hook deny a call but not approve it: deny here, or approve in Gemini's terminal.";

/**
 * Plan a BeforeTool call. `gemini` is what Gemini itself will decide (the cockpit's engine over Gemini's
 * stores); `cockpit` is the cockpit's own team rule, when one applies.
 */
export function planBeforeTool(
  p: BeforeToolPayload,
  gemini: { decision: CockpitDecision; reason: string },
  cockpit?: { decision: CockpitDecision; reason: string },
): BeforeToolPlan {
  if (cockpit?.decision === "deny") return { kind: "deny", reason: cockpit.reason };
  if (gemini.decision === "deny") return { kind: "pass", audit: "denied by Gemini" };
  if (gemini.decision === "allow" && cockpit?.decision !== "ask") return { kind: "pass", audit: "allowed by Gemini" };
  if (gemini.decision === "allow" && cockpit?.decision === "ask") return { kind: "force-ask", reason: cockpit.reason };
  return {
    kind: "card",
    card: {
      agent: "gemini",
      sessionId: p.session_id,
      cwd: p.cwd,
      tool: p.tool_name,
      input: p.tool_input,
      reason: gemini.reason,
      capability: "deny-only",
      note: DENY_ONLY_NOTE,
    },
  };
}

/** JSON a Gemini hook prints on stdout (exit code 0). */
export type GeminiHookOutput = { decision?: "deny" | "ask"; reason?: string; systemMessage?: string };

/**
 * The BeforeTool answer: a remote deny blocks the call with the person's reason; anything else (no answer,
 * "let it through", the cockpit unreachable) prints nothing that changes Gemini's own decision, so Gemini
 * prompts in its terminal as it would have. Never `allow` — it would mean nothing and suggest it did.
 */
export function beforeToolOutput(
  answer:
    | { kind: "denied"; by?: string; message?: string }
    | { kind: "force-ask"; reason: string }
    | { kind: "pass"; note?: string },
): GeminiHookOutput {
  if (answer.kind === "denied") {
    const who = answer.by ? ` by ${answer.by}` : "";
    return {
      decision: "deny",
      reason: `Denied from Permissions Cockpit${who}${answer.message ? `: ${answer.message}` : "."}`,
    };
  }
  if (answer.kind === "force-ask") return { decision: "ask", systemMessage: `Permissions Cockpit: ${answer.reason}` };
  return answer.note ? { systemMessage: answer.note } : {};
}

/** An audit event for `POST /api/agent/v1/events` from an After/BeforeTool payload. */
export function auditEventOf(
  p: z.infer<typeof BeforeToolPayload> | z.infer<typeof AfterToolPayload>,
  outcome?: CockpitDecision,
): {
  kind: "pre_tool_use" | "post_tool_use";
  sessionId: string;
  tool: string;
  input: Record<string, unknown>;
  cwd: string;
  outcome?: CockpitDecision;
  reason?: string;
  at?: string;
} {
  const after = p.hook_event_name === "AfterTool";
  const err = after && (p as z.infer<typeof AfterToolPayload>).tool_response.error;
  return {
    kind: after ? "post_tool_use" : "pre_tool_use",
    sessionId: p.session_id,
    tool: p.tool_name,
    input: p.tool_input,
    cwd: p.cwd,
    ...(outcome ? { outcome } : {}),
    ...(err ? { reason: `tool error: ${typeof err === "string" ? err : JSON.stringify(err).slice(0, 500)}` } : {}),
    ...(p.timestamp ? { at: p.timestamp } : {}),
  };
}

/**
 * A ToolPermission notification means Gemini is now showing its own prompt: the card (if any) tells the person
 * to answer in the terminal. Other notification types are ignored.
 */
export function notificationPrompt(
  p: z.infer<typeof NotificationPayload>,
): { sessionId: string; cwd: string; message: string; details: Record<string, unknown> } | null {
  if (p.notification_type !== "ToolPermission") return null;
  return { sessionId: p.session_id, cwd: p.cwd, message: p.message, details: p.details ?? {} };
}
