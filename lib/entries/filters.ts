import { FINDING_KINDS } from "@/lib/hygiene/types";
import { ACTIONS, SCOPES } from "@/lib/policy/types";
import { z } from "zod";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The list filters, as they appear in the page URL and the API query string. */
export const EntryFilters = z.object({
  scope: z.preprocess(blankToUndefined, z.enum(SCOPES).optional()),
  action: z.preprocess(blankToUndefined, z.enum(ACTIONS).optional()),
  tool: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  q: z.preprocess(blankToUndefined, z.string().trim().max(500).optional()),
  /** Entries with a hygiene finding of this kind (`over-broad`…), or any warning or error (`problems`). */
  finding: z.preprocess(blankToUndefined, z.enum([...FINDING_KINDS, "problems"]).optional()),
});
export type EntryFilters = z.infer<typeof EntryFilters>;

/** The fields a filter reads; both the store layer's entries and the page's views have them. */
export interface FilterableEntry {
  scope: string;
  action: string;
  tool: string | null;
  kind: string;
  rule: string;
  specifier: string | null;
  agent: string;
  store: { path: string };
}

/** Tool facet: the engine's tool name, or the kind for grants (which have no tool). */
export const toolOf = (e: Pick<FilterableEntry, "tool" | "kind">) =>
  e.tool ?? (e.kind === "grant" ? "grant" : "unparsed");

export function matchesFilters(e: FilterableEntry, f: EntryFilters): boolean {
  if (f.scope && e.scope !== f.scope) return false;
  if (f.action && e.action !== f.action) return false;
  if (f.tool && toolOf(e).toLowerCase() !== f.tool.toLowerCase()) return false;
  if (f.q) {
    const needle = f.q.toLowerCase();
    const hay = `${e.rule}\n${e.tool ?? ""}\n${e.specifier ?? ""}\n${e.agent}\n${e.store.path}`.toLowerCase();
    if (!hay.includes(needle)) return false;
  }
  return true;
}

/** The filters as a query string (empty values dropped), so URLs stay short and shareable. */
export function filtersToSearch(workspace: string | undefined, f: EntryFilters): string {
  const params = new URLSearchParams();
  if (workspace) params.set("workspace", workspace);
  for (const key of ["scope", "action", "tool", "q", "finding"] as const) {
    const v = f[key];
    if (v) params.set(key, v);
  }
  return params.toString();
}
