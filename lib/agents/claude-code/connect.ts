import { parse, type ParseError } from "jsonc-parser";
import { detectFormatting } from "@/lib/stores/json-edit";
import { insertPretty } from "../shared/json-splice";
import { editWorkspaceFile, removeCockpitHandlers } from "../shared/hook-settings";

export const HOOK_EVENTS = ["PermissionRequest", "UserPromptSubmit", "PreToolUse", "PostToolUse"] as const;
/** Tool events are only recorded (audit), never answered: a short timeout keeps a slow cockpit out of the agent's way. */
export const AUDIT_HOOK_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse"]);
const AUDIT_HOOK_TIMEOUT = 10;
export const HOOK_PATH = "/api/agent/v1/hooks/claude-code";
export const SETTINGS_FILE = ".claude/settings.local.json";

type Handler = Record<string, unknown>;
type Group = { matcher?: string; hooks?: Handler[] };

export interface ConnectOptions {
  workspace: string;
  /** The cockpit's base URL, e.g. http://localhost:3000. */
  url: string;
  http: boolean;
  /** Absolute path of bin/cockpit.mjs for command hooks. */
  cliPath: string;
}

/** The handler `connect` writes: a command hook running this cockpit's CLI, or an HTTP hook to the server. */
export function cockpitHandler(o: Pick<ConnectOptions, "url" | "http" | "cliPath">): Handler {
  if (o.http) {
    return {
      type: "http",
      url: `${o.url.replace(/\/$/, "")}${HOOK_PATH}`,
      timeout: 600,
      headers: { Authorization: "Bearer $COCKPIT_TOKEN" },
      allowedEnvVars: ["COCKPIT_TOKEN"],
    };
  }
  return {
    type: "command",
    command: `COCKPIT_URL=${o.url.replace(/\/$/, "")} node ${JSON.stringify(o.cliPath)} hook claude-code`,
    timeout: 600,
  };
}

/** Recognises a handler `connect` wrote (either kind, any URL), so `disconnect` removes exactly those. */
export function isCockpitHandler(h: Handler): boolean {
  if (h.type === "http") return typeof h.url === "string" && h.url.endsWith(HOOK_PATH);
  return (
    h.type === "command" &&
    typeof h.command === "string" &&
    / hook claude-code$/.test(h.command) &&
    h.command.includes("cockpit")
  );
}

export function parseSettings(text: string, file: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: false });
  if (errors.length || !value || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${file} is not a JSON object; fix it first (it is never overwritten)`);
  return value as Record<string, unknown>;
}

/**
 * Adds the cockpit hook for PermissionRequest and UserPromptSubmit, and the audit hooks for PreToolUse and
 * PostToolUse (`audit`, by default the same kind as `handler`: `connect --audit-http` passes an HTTP one); the
 * file's other bytes stay as they were.
 */
export function addHooks(
  text: string,
  handler: Handler,
  file = SETTINGS_FILE,
  audit: Handler = handler,
): { text: string; changed: boolean } {
  const fmt = detectFormatting(text || "{\n  \n}");
  let next = text.trim() ? text : "{}\n";
  let changed = false;
  for (const event of HOOK_EVENTS) {
    const settings = parseSettings(next, file);
    const groups = ((settings.hooks as Record<string, unknown> | undefined)?.[event] ?? []) as Group[];
    if (!Array.isArray(groups)) throw new Error(`${file}: hooks.${event} is not a list`);
    if (groups.some((g) => (g.hooks ?? []).some((h) => isCockpitHandler(h)))) continue;
    const group: Group =
      event === "PermissionRequest"
        ? { matcher: "*", hooks: [handler] }
        : AUDIT_HOOK_EVENTS.has(event)
          ? { matcher: "*", hooks: [{ ...audit, timeout: AUDIT_HOOK_TIMEOUT }] }
          : { hooks: [handler] };
    // Insert at the deepest existing level, as a pretty-printed splice: no other byte of the file changes.
    const hooks = settings.hooks as Record<string, unknown> | undefined;
    next = !hooks
      ? insertPretty(next, ["hooks"], { [event]: [group] }, fmt)
      : !(event in hooks)
        ? insertPretty(next, ["hooks", event], [group], fmt)
        : insertPretty(next, ["hooks", event, groups.length], group, fmt);
    changed = true;
  }
  return { text: changed ? next : text, changed };
}

/** Removes the cockpit's handlers (and groups or keys left empty by that); nothing else. */
export function removeHooks(text: string, file = SETTINGS_FILE): { text: string; changed: boolean } {
  return removeCockpitHandlers(text, {
    events: HOOK_EVENTS,
    isCockpit: isCockpitHandler,
    parse: (t) => parseSettings(t, file),
  });
}

/** Reads, edits and atomically rewrites the workspace's `.claude/settings.local.json` (refusing symlinks). */
export async function editClaudeSettings(
  workspace: string,
  edit: (text: string) => { text: string; changed: boolean },
): Promise<{ file: string; changed: boolean }> {
  return editWorkspaceFile(workspace, SETTINGS_FILE, edit);
}
