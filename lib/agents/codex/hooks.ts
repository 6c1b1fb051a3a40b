/**
 * Codex hooks connector core: install/remove exactly the cockpit's handlers in a `hooks.json`
 * (`~/.codex/hooks.json` or a trusted project's `.codex/hooks.json`; hooks/src/engine/config.rs, discovery.rs),
 * keeping every other byte; validate Codex's hook payloads (hooks/schema/generated/*.input);
 * map the cockpit's answer to Codex's hook output (permission-request.command.output). Pure.
 *
 * The connector (connector.ts) turns a payload into a card or an audit event; the floor rule (Codex asked, so the
 * rules it weighed never approve the card) is the decision pipeline's.
 */
import { parse, type ParseError } from "jsonc-parser";
import { z } from "zod";
import { detectFormatting } from "@/lib/stores/json-edit";
import { insertPretty, removeAt } from "../shared/json-splice";

export const CODEX_HOOK_EVENTS = ["PermissionRequest", "PreToolUse", "PostToolUse", "UserPromptSubmit"] as const;
export type CodexHookEvent = (typeof CODEX_HOOK_EVENTS)[number];
/** Audit-only events get a short timeout so a slow cockpit never holds Codex up. */
const AUDIT_TIMEOUT = 10;
/** A person may take a while to answer from a phone; Codex's own default is 600 s. */
const PERMISSION_TIMEOUT = 600;

type Handler = Record<string, unknown>;
type Group = { matcher?: string; hooks?: Handler[] };

export class HooksFileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HooksFileRefused";
  }
}

/** The command Codex runs: this cockpit's CLI in hook mode for Codex. */
export function codexHookCommand(o: { url: string; cliPath: string }): string {
  return `COCKPIT_URL=${o.url.replace(/\/$/, "")} node ${JSON.stringify(o.cliPath)} hook codex`;
}

/** A handler the cockpit wrote (any URL, any install path), so removal takes exactly those. */
export function isCockpitCodexHandler(h: unknown): boolean {
  if (!h || typeof h !== "object") return false;
  const r = h as Handler;
  return (
    r.type === "command" &&
    typeof r.command === "string" &&
    / hook codex$/.test(r.command) &&
    r.command.includes("cockpit")
  );
}

/** Codex reads hooks.json with serde_json: strict JSON, no comments or trailing commas. */
function parseHooksFile(text: string, file: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length || !value || typeof value !== "object" || Array.isArray(value))
    throw new HooksFileRefused(`${file} is not a JSON object Codex can read; fix it first (it is never overwritten)`);
  const hooks = (value as Record<string, unknown>).hooks;
  if (hooks !== undefined && (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)))
    throw new HooksFileRefused(`${file}: "hooks" is not an object`);
  return value as Record<string, unknown>;
}

function groupsOf(settings: Record<string, unknown>, event: string, file: string): Group[] {
  const groups = (settings.hooks as Record<string, unknown> | undefined)?.[event] ?? [];
  if (!Array.isArray(groups)) throw new HooksFileRefused(`${file}: hooks.${event} is not a list`);
  return groups as Group[];
}

function groupFor(event: CodexHookEvent, command: string): Group {
  const handler = (timeout: number): Handler => ({
    type: "command",
    command,
    timeout,
    statusMessage:
      event === "PermissionRequest" ? "Waiting for the permissions cockpit" : "Recording in the permissions cockpit",
  });
  if (event === "PermissionRequest") return { matcher: "*", hooks: [handler(PERMISSION_TIMEOUT)] };
  if (event === "UserPromptSubmit") return { hooks: [handler(AUDIT_TIMEOUT)] };
  return { matcher: "*", hooks: [handler(AUDIT_TIMEOUT)] };
}

/** Add the cockpit's handler for each event that lacks one; other bytes stay as they were. */
export function installCodexHooks(
  text: string,
  command: string,
  file = "hooks.json",
): { text: string; changed: boolean } {
  const fmt = detectFormatting(text.trim() ? text : "{\n  \n}");
  let next = text.trim() ? text : "{}\n";
  let changed = false;
  for (const event of CODEX_HOOK_EVENTS) {
    const settings = parseHooksFile(next, file);
    const groups = groupsOf(settings, event, file);
    if (groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some(isCockpitCodexHandler))) continue;
    // Insert at the deepest level that exists, pretty-printed there: no other byte of the file changes.
    const hooks = settings.hooks as Record<string, unknown> | undefined;
    const group = groupFor(event, command);
    next = !hooks
      ? insertPretty(next, ["hooks"], { [event]: [group] }, fmt)
      : !(event in hooks)
        ? insertPretty(next, ["hooks", event], [group], fmt)
        : insertPretty(next, ["hooks", event, groups.length], group, fmt);
    changed = true;
  }
  parseHooksFile(next, file);
  return { text: changed ? next : text, changed };
}

/** Remove the cockpit's handlers, and groups, events or the `hooks` key left empty by that; nothing else. */
export function removeCodexHooks(text: string, file = "hooks.json"): { text: string; changed: boolean } {
  if (!text.trim()) return { text, changed: false };
  let next = text;
  let changed = false;
  const edit = (at: (string | number)[]) => {
    next = removeAt(next, at);
    changed = true;
  };
  for (const event of CODEX_HOOK_EVENTS) {
    const groups = groupsOf(parseHooksFile(next, file), event, file);
    let touched = false;
    for (let g = groups.length - 1; g >= 0; g--) {
      const handlers = Array.isArray(groups[g]?.hooks) ? groups[g]!.hooks! : [];
      const ours = handlers.map(isCockpitCodexHandler);
      if (!ours.some(Boolean)) continue;
      touched = true;
      if (ours.every(Boolean)) edit(["hooks", event, g]);
      else for (let h = handlers.length - 1; h >= 0; h--) if (ours[h]) edit(["hooks", event, g, "hooks", h]);
    }
    if (touched && groupsOf(parseHooksFile(next, file), event, file).length === 0) edit(["hooks", event]);
  }
  const hooks = parseHooksFile(next, file).hooks;
  if (changed && hooks && typeof hooks === "object" && Object.keys(hooks).length === 0) edit(["hooks"]);
  return { text: changed ? next : text, changed };
}

// ——— payloads (hooks/schema/generated/*.command.input.schema.json) ———

const PermissionMode = z.enum(["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"]);
const Common = {
  session_id: z.string().min(1).max(300),
  turn_id: z.string().max(300),
  transcript_path: z.string().max(4096).nullable(),
  cwd: z.string().min(1).max(4096),
  model: z.string().max(200),
  permission_mode: PermissionMode,
};

export const CodexPermissionRequest = z.looseObject({
  ...Common,
  hook_event_name: z.literal("PermissionRequest"),
  tool_name: z.string().min(1).max(300),
  tool_input: z.looseObject({ command: z.string().max(1_000_000), description: z.string().max(20_000).optional() }),
});
export const CodexPreToolUse = z.looseObject({
  ...Common,
  hook_event_name: z.literal("PreToolUse"),
  tool_name: z.string().min(1).max(300),
  tool_use_id: z.string().max(300),
  tool_input: z.looseObject({ command: z.string().max(1_000_000) }),
});
export const CodexPostToolUse = z.looseObject({
  ...Common,
  hook_event_name: z.literal("PostToolUse"),
  tool_name: z.string().min(1).max(300),
  tool_use_id: z.string().max(300),
  tool_input: z.looseObject({ command: z.string().max(1_000_000) }),
  tool_response: z.unknown(),
});
export const CodexUserPromptSubmit = z.looseObject({
  ...Common,
  hook_event_name: z.literal("UserPromptSubmit"),
  prompt: z.string(),
});
export const CodexHookPayload = z.discriminatedUnion("hook_event_name", [
  CodexPermissionRequest,
  CodexPreToolUse,
  CodexPostToolUse,
  CodexUserPromptSubmit,
]);
export type CodexHookPayload = z.infer<typeof CodexHookPayload>;

// ——— outputs (hooks/schema/generated/permission-request.command.output.schema.json) ———

export type CodexPermissionOutput = {
  hookSpecificOutput: {
    hookEventName: "PermissionRequest";
    decision: { behavior: "allow" } | { behavior: "deny"; message: string };
  };
};

/**
 * What the hook prints for a settled card. `undefined` means print nothing and exit 0: Codex then shows its
 * own prompt (pending, expired, aborted, cockpit unreachable). Never an allow by default.
 */
export function codexHookOutput(
  outcome: { answer: "allow" } | { answer: "deny"; message?: string; by?: string } | { answer: "none" },
): CodexPermissionOutput | undefined {
  if (outcome.answer === "none") return undefined;
  if (outcome.answer === "allow")
    return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } };
  const message =
    outcome.message?.trim() || `Denied in the permissions cockpit${outcome.by ? ` by ${outcome.by}` : ""}.`;
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message } } };
}
