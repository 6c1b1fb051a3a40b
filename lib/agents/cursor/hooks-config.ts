/**
 * Installing and removing the cockpit's entries in Cursor's `hooks.json` (`<project>/.cursor/hooks.json` or
 * `~/.cursor/hooks.json`; shape `{"version": 1, "hooks": {"<event>": [{"command": …}]}}`, https://cursor.com/docs/hooks).
 * Pure text edits that keep every byte they do not own (io/write.ts `editHooksFile` writes them).
 */
import { getNodeValue, parse, type ParseError } from "jsonc-parser";
import { z } from "zod";
import { InvalidStoreError } from "@/lib/errors";
import { appendArrayItem, appendProperty, layoutOf, propertyNode, removeMember, treeOf } from "./jsonc-splice";

/**
 * The events the connector answers (before*) and records (after*). `failClosed: true` on the answering ones: Cursor
 * lets an action through when a hook crashes or times out unless the entry says so, and the cockpit never fails open.
 */
export const HOOK_EVENTS = {
  beforeShellExecution: { timeout: 600, failClosed: true },
  beforeMCPExecution: { timeout: 600, failClosed: true },
  beforeReadFile: { timeout: 30, failClosed: true },
  afterShellExecution: { timeout: 10, failClosed: false },
  afterMCPExecution: { timeout: 10, failClosed: false },
  afterFileEdit: { timeout: 10, failClosed: false },
} as const;
export type HookEvent = keyof typeof HOOK_EVENTS;
export const HOOK_EVENT_NAMES = Object.keys(HOOK_EVENTS) as HookEvent[];

export const HOOK_VERB = "hook cursor";

const Handler = z.looseObject({
  command: z.string().optional(),
  type: z.string().optional(),
  timeout: z.number().optional(),
  failClosed: z.boolean().optional(),
});
export const CursorHooksFile = z.looseObject({
  version: z.number().optional(),
  hooks: z.record(z.string(), z.array(Handler)).optional(),
});
export type CursorHooksFile = z.infer<typeof CursorHooksFile>;

export interface HookCommand {
  /** Absolute path of bin/cockpit.mjs. */
  cliPath: string;
  /** The cockpit's base URL. */
  url: string;
}

/** The command line Cursor runs for every cockpit hook (the token comes from the environment, never the file). */
export function hookCommand(o: HookCommand): string {
  return `COCKPIT_URL=${o.url.replace(/\/$/, "")} node ${JSON.stringify(o.cliPath)} ${HOOK_VERB}`;
}

/** Recognises a handler `install` wrote (any URL, any path), so `remove` takes exactly those. */
export function isCockpitHandler(h: unknown): boolean {
  const c = (h as { command?: unknown })?.command;
  return typeof c === "string" && c.endsWith(` ${HOOK_VERB}`) && c.includes("cockpit");
}

function readHooks(text: string, file: string): CursorHooksFile {
  if (!text.trim()) return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  const parsed = CursorHooksFile.safeParse(value);
  if (errors.length || !value || typeof value !== "object" || Array.isArray(value) || !parsed.success) {
    const why = errors.length
      ? "not valid JSON"
      : parsed.success
        ? "not an object"
        : `${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`;
    throw new InvalidStoreError(`${file} is not a Cursor hooks file (${why}); fix it first — it is never overwritten`);
  }
  if (parsed.data.version !== undefined && parsed.data.version !== 1)
    throw new InvalidStoreError(
      `${file} has version ${parsed.data.version}; the cockpit writes only version 1 hooks files`,
    );
  return parsed.data;
}

/** Add the cockpit's handler to every event that lacks one; nothing else changes. */
export function installHooks(text: string, cmd: HookCommand, file: string): { text: string; changed: boolean } {
  const current = readHooks(text, file);
  const command = hookCommand(cmd);
  const l = layoutOf(text);
  let next = text.trim() ? text : `{${l.eol}${l.unit}"version": 1${l.eol}}${l.eol}`;
  let changed = false;
  if (current.version === undefined && text.trim()) {
    next = appendProperty(next, treeOf(next)!, "version", 1, l);
    changed = true;
  }
  for (const event of HOOK_EVENT_NAMES) {
    const handlers = readHooks(next, file).hooks?.[event] ?? [];
    if (handlers.some(isCockpitHandler)) continue;
    const handler = { command, ...HOOK_EVENTS[event] };
    const root = treeOf(next)!;
    const hooks = propertyNode(root, "hooks")?.children?.[1];
    const list = propertyNode(hooks, event)?.children?.[1];
    next = !hooks
      ? appendProperty(next, root, "hooks", { [event]: [handler] }, l)
      : !list
        ? appendProperty(next, hooks, event, [handler], l)
        : appendArrayItem(next, list, handler, l);
    changed = true;
  }
  return { text: changed ? next : text, changed };
}

/** Remove the cockpit's handlers, and event lists (and an empty `hooks`) left empty by that; nothing else. */
export function removeHooks(text: string, file: string): { text: string; changed: boolean } {
  if (!text.trim()) return { text, changed: false };
  readHooks(text, file);
  let next = text;
  let changed = false;
  for (const event of HOOK_EVENT_NAMES) {
    for (;;) {
      const hooks = propertyNode(treeOf(next)!, "hooks")?.children?.[1];
      const prop = propertyNode(hooks, event);
      const list = prop?.children?.[1];
      if (list?.type !== "array") break;
      const ours = list.children?.find((h) => isCockpitHandler(getNodeValue(h)));
      if (!ours) break;
      next = list.children!.length === 1 ? removeMember(next, prop!) : removeMember(next, ours);
      changed = true;
    }
  }
  const root = treeOf(next)!;
  const hooksProp = propertyNode(root, "hooks");
  if (changed && hooksProp?.children?.[1]?.type === "object" && !hooksProp.children[1].children?.length)
    next = removeMember(next, hooksProp);
  return { text: next, changed };
}

/** Which cockpit events a hooks file has (for `connect` status and tests). */
export function installedEvents(text: string, file: string): HookEvent[] {
  const hooks = readHooks(text, file).hooks ?? {};
  return HOOK_EVENT_NAMES.filter((e) => (hooks[e] ?? []).some(isCockpitHandler));
}
