import { removeJsonRule } from "./json-edit";
import { loadAllStores } from "./list-entries";
import type { LoadedStore } from "./load-store";
import { parsePlistStore } from "./plist-format";
import { applySplices, removeItemSplice } from "./plist-edit";
import type { Datum } from "@/lib/sexp/read";
import type { StorePaths } from "./discover";
import { StoreChangedError, EntryNotFoundError } from "@/lib/errors";
import { assertWritable, commitStore } from "./write-common";
import type { Entry, Scope } from "./types";

/** What removing several entries does to one store file: its text before and after, nothing written. */
export interface StoreRemoval {
  store: string;
  scope: Scope;
  version: string;
  before: string;
  after: string;
  removed: Pick<Entry, "id" | "rule" | "line" | "action" | "agent">[];
}

/**
 * Remove many entries from their files through the same splices `revokeEntry` uses, one file at a time,
 * last entry first so earlier offsets stay valid. Session entries are not handled here.
 */
export async function planRemovals(paths: StorePaths, ids: string[]): Promise<StoreRemoval[]> {
  const wanted = new Set(ids);
  const found = new Set<string>();
  const out: StoreRemoval[] = [];
  for (const store of await loadAllStores(paths)) {
    const mine = store.located.filter((l) => wanted.has(l.entry.id));
    if (mine.length === 0) continue;
    assertWritable(store);
    let text = store.bytes.text;
    for (const { entry, location } of [...mine].sort((x, y) => y.location.start - x.location.start)) {
      text = removeOne(store, text, entry, location.start, location.index);
      found.add(entry.id);
    }
    out.push({
      store: store.info.path,
      scope: store.info.scope,
      version: store.info.version,
      before: store.bytes.text,
      after: text,
      removed: mine.map(({ entry: e }) => ({ id: e.id, rule: e.rule, line: e.line, action: e.action, agent: e.agent })),
    });
  }
  const missing = ids.filter((id) => !found.has(id) && !id.startsWith("session:"));
  if (missing.length) throw new EntryNotFoundError(`no entry ${missing[0]} — refresh`);
  return out;
}

function removeOne(store: LoadedStore, text: string, entry: Entry, start: number, index?: number): string {
  if (!store.plist) return removeJsonRule(text, entry.action, index!, entry.rule);
  const parsed = parsePlistStore(text);
  if (!parsed.ok) throw new StoreChangedError();
  const doc = parsed.doc;
  for (const list of [doc.rules, doc.grants] as (Datum | undefined)[]) {
    if (!list || list.type !== "list") continue;
    const i = list.items.findIndex((d) => d.start === start);
    if (i >= 0) return applySplices(text, [removeItemSplice(text, list.items, i, doc.comments)]);
  }
  throw new StoreChangedError();
}

/** Write each planned file atomically, refusing any file whose version moved on since the plan. */
export async function applyRemovals(
  paths: StorePaths,
  plans: StoreRemoval[],
): Promise<{ store: string; version: string }[]> {
  const stores = new Map((await loadAllStores(paths)).map((s) => [s.info.path, s]));
  const written: { store: string; version: string }[] = [];
  for (const plan of plans) {
    const store = stores.get(plan.store);
    if (!store) throw new EntryNotFoundError(`${plan.store} is gone — refresh`);
    assertWritable(store, plan.version);
    written.push({ store: plan.store, version: (await commitStore(store, plan.after)).version });
  }
  return written;
}
