/**
 * The hook-settings edits agents with JSON settings files share: removing the cockpit's handlers (and the groups or
 * keys left empty by that) and the read-edit-atomic-write of a workspace file. Nothing here knows which agent it
 * serves; each agent passes its own events, handler test and settings parser.
 */
import path from "node:path";
import { readNoFollow, writeAtomically } from "@/lib/stores/atomic-write";
import { removeAt } from "./json-splice";

type Handler = Record<string, unknown>;
type Group = { matcher?: string; hooks?: Handler[] };

export function removeCockpitHandlers(
  text: string,
  o: {
    events: readonly string[];
    isCockpit: (h: Handler) => boolean;
    parse: (text: string) => Record<string, unknown>;
  },
): { text: string; changed: boolean } {
  if (!text.trim()) return { text, changed: false };
  let next = text;
  let changed = false;
  for (const event of o.events) {
    const groups = ((o.parse(next).hooks as Record<string, unknown> | undefined)?.[event] ?? []) as Group[];
    if (!Array.isArray(groups)) continue;
    for (let g = groups.length - 1; g >= 0; g--) {
      const handlers = groups[g]!.hooks ?? [];
      for (let h = handlers.length - 1; h >= 0; h--) {
        if (!o.isCockpit(handlers[h]!)) continue;
        const onlyOne = handlers.length === 1;
        next = removeAt(next, onlyOne ? ["hooks", event, g] : ["hooks", event, g, "hooks", h]);
        changed = true;
        if (onlyOne) break;
      }
    }
    const after = o.parse(next).hooks as Record<string, unknown[]> | undefined;
    if (after && Array.isArray(after[event]) && after[event].length === 0) next = removeAt(next, ["hooks", event]);
  }
  const hooks = o.parse(next).hooks;
  if (changed && hooks && typeof hooks === "object" && Object.keys(hooks).length === 0)
    next = removeAt(next, ["hooks"]);
  return { text: next, changed };
}

/** Reads, edits and atomically rewrites `<workspace>/<file>` (refusing symlinks; a concurrent change is refused). */
export async function editWorkspaceFile(
  workspace: string,
  file: string,
  edit: (text: string) => { text: string; changed: boolean },
): Promise<{ file: string; changed: boolean }> {
  const full = path.join(workspace, file);
  const current = await readNoFollow(full);
  const text = current.exists ? current.text : "";
  const result = edit(text);
  if (result.changed)
    await writeAtomically({ file: full, root: workspace, expectedVersion: current.version, content: result.text });
  return { file: full, changed: result.changed };
}
