import path from "node:path";
import { detectFormatting } from "@/lib/stores/json-edit";
import { readNoFollow, writeAtomically } from "@/lib/stores/atomic-write";
import { parseSettings } from "../claude-code/connect";
import { insertPretty, removeAt } from "../shared/json-splice";

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
  if (!text.trim()) return { text, changed: false };
  let next = text;
  let changed = false;
  for (const event of HOOK_EVENTS) {
    const groups = ((parseSettings(next, file).hooks as Record<string, unknown> | undefined)?.[event] ?? []) as Group[];
    if (!Array.isArray(groups)) continue;
    for (let g = groups.length - 1; g >= 0; g--) {
      const handlers = groups[g]!.hooks ?? [];
      for (let h = handlers.length - 1; h >= 0; h--) {
        if (!isCockpitHandler(handlers[h]!)) continue;
        const onlyOne = handlers.length === 1;
        next = removeAt(next, onlyOne ? ["hooks", event, g] : ["hooks", event, g, "hooks", h]);
        changed = true;
        if (onlyOne) break;
      }
    }
    const after = parseSettings(next, file).hooks as Record<string, unknown[]> | undefined;
    if (after && Array.isArray(after[event]) && after[event].length === 0) next = removeAt(next, ["hooks", event]);
  }
  const hooks = parseSettings(next, file).hooks;
  if (changed && hooks && typeof hooks === "object" && Object.keys(hooks).length === 0)
    next = removeAt(next, ["hooks"]);
  return { text: next, changed };
}

/** Reads, edits and atomically rewrites the workspace's `.commandcode/settings.json` (refusing symlinks). */
export async function editCommandCodeSettings(
  workspace: string,
  edit: (text: string) => { text: string; changed: boolean },
): Promise<{ file: string; changed: boolean }> {
  const file = path.join(workspace, SETTINGS_FILE);
  const current = await readNoFollow(file);
  const text = current.exists ? current.text : "";
  const result = edit(text);
  if (result.changed)
    await writeAtomically({ file, root: workspace, expectedVersion: current.version, content: result.text });
  return { file, changed: result.changed };
}
