import { detectFormatting } from "@/lib/stores/json-edit";
import { parseSettings } from "../claude-code/connect";
import { insertPretty } from "../shared/json-splice";
import { editWorkspaceFile, removeCockpitHandlers } from "../shared/hook-settings";

/**
 * Command Code's hooks (reference §3.2): `PreToolUse` (may deny; runs before the tool) and `PostToolUse`
 * (advisory), command handlers only, timeout in seconds (default 30, at most 600). They live under `hooks` in
 * the project's `.commandcode/settings.json` (or the user's `~/.commandcode/settings.json`).
 */
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse"] as const;
export const SETTINGS_FILE = ".commandcode/settings.json";
/** PreToolUse may wait for a person: Command Code's maximum. PostToolUse only records. */
const TIMEOUTS: Record<(typeof HOOK_EVENTS)[number], number> = { PreToolUse: 600, PostToolUse: 10 };

type Handler = Record<string, unknown>;
type Group = { matcher?: string; hooks?: Handler[] };

/** The command handler `connect` writes: this checkout's CLI as `cockpit hook commandcode`. */
export function commandCodeHandler(o: { url: string; cliPath: string }): Handler {
  return {
    type: "command",
    command: `COCKPIT_URL=${o.url.replace(/\/$/, "")} node ${JSON.stringify(o.cliPath)} hook commandcode`,
  };
}

/** A handler `connect` wrote (any URL, any checkout), so `disconnect` removes exactly those. */
export function isCockpitHandler(h: Handler): boolean {
  return (
    h.type === "command" &&
    typeof h.command === "string" &&
    / hook commandcode$/.test(h.command) &&
    h.command.includes("cockpit")
  );
}

/** Adds the cockpit handler to PreToolUse and PostToolUse (every tool: no matcher); the file's other bytes stay. */
export function addHooks(text: string, handler: Handler, file = SETTINGS_FILE): { text: string; changed: boolean } {
  const fmt = detectFormatting(text || "{\n  \n}");
  let next = text.trim() ? text : "{}\n";
  let changed = false;
  for (const event of HOOK_EVENTS) {
    const settings = parseSettings(next, file);
    const hooks = settings.hooks as Record<string, unknown> | undefined;
    if (hooks !== undefined && (typeof hooks !== "object" || Array.isArray(hooks) || hooks === null))
      throw new Error(`${file}: hooks is not an object; fix it first (it is never overwritten)`);
    const groups = (hooks?.[event] ?? []) as Group[];
    if (!Array.isArray(groups)) throw new Error(`${file}: hooks.${event} is not a list`);
    if (groups.some((g) => (g.hooks ?? []).some((h) => isCockpitHandler(h)))) continue;
    const group: Group = { hooks: [{ ...handler, timeout: TIMEOUTS[event] }] };
    next = !hooks
      ? insertPretty(next, ["hooks"], { [event]: [group] }, fmt)
      : !(event in hooks)
        ? insertPretty(next, ["hooks", event], [group], fmt)
        : insertPretty(next, ["hooks", event, groups.length], group, fmt);
    changed = true;
  }
  return { text: changed ? next : text, changed };
}

/** Removes the cockpit's handlers (and the groups or keys left empty by that); nothing else changes. */
export function removeHooks(text: string, file = SETTINGS_FILE): { text: string; changed: boolean } {
  return removeCockpitHandlers(text, {
    events: HOOK_EVENTS,
    isCockpit: isCockpitHandler,
    parse: (t) => parseSettings(t, file),
  });
}

/** Reads, edits and atomically rewrites the workspace's `.commandcode/settings.json` (refusing symlinks). */
export async function editCommandCodeSettings(
  workspace: string,
  edit: (text: string) => { text: string; changed: boolean },
): Promise<{ file: string; changed: boolean }> {
  return editWorkspaceFile(workspace, SETTINGS_FILE, edit);
}
