import { EntryNotFoundError } from "@/lib/errors";
import type { Entry } from "./types";
import { removeJsonRule } from "./json-edit";
import { applySplices, removeItemSplice } from "./plist-edit";
import type { Datum } from "@/lib/sexp/read";
import { isSessionEntryId, SESSION_ID_PREFIX, type SessionEntrySource } from "./session";
import {
  assertWritable,
  commitStore,
  findEntry,
  linesAround,
  scopeWarning,
  type EntryRef,
  type WriteResult,
} from "./write-common";

export interface RevokeEntryInput extends EntryRef {
  sessionSource?: SessionEntrySource;
}

/** Remove one entry from its store, touching only that entry's text. */
export async function revokeEntry(input: RevokeEntryInput): Promise<WriteResult> {
  return (await revokeEntryDetailed(input)).result;
}

/**
 * `revokeEntry`, also giving the entry as it was found (null for a session entry): callers that record
 * what was revoked (the audit row) need not list every store again.
 */
export async function revokeEntryDetailed(
  input: RevokeEntryInput,
): Promise<{ result: WriteResult; entry: Entry | null }> {
  if (isSessionEntryId(input.id)) return { result: await revokeSessionEntry(input), entry: null };
  const { store, located } = await findEntry(input);
  assertWritable(store, input.expectedVersion);
  const text = store.bytes.text;
  const { entry, location } = located;
  const before = { version: store.info.version, ...linesAround(text, location.start, location.end) };
  let next: string;
  if (store.plist) {
    const doc = store.plist.doc;
    const list = (location.list === "rules" ? doc.rules : doc.grants) as Datum & { type: "list" };
    const index = list.items.findIndex((d) => d.start === location.start);
    next = applySplices(text, [removeItemSplice(text, list.items, index, doc.comments)]);
  } else {
    next = removeJsonRule(text, entry.action, location.index!, entry.rule);
  }
  const written = await commitStore(store, next, input.dryRun);
  const at = Math.min(location.start, next.length);
  const result: WriteResult = {
    store: store.info.path,
    scope: store.info.scope,
    before,
    after: { version: written.version, line: before.line, text: linesAround(next, at, at).text },
    scopeWarning: scopeWarning(store.info.scope),
    ...(input.dryRun ? { dryRun: true } : {}),
  };
  return { result, entry };
}

async function revokeSessionEntry(input: RevokeEntryInput): Promise<WriteResult> {
  if (!input.sessionSource) throw new EntryNotFoundError(`session entry ${input.id} needs the running server`);
  const rowId = input.id.slice(SESSION_ID_PREFIX.length);
  const row = (await input.sessionSource.list()).find((r) => r.id === rowId);
  if (!row) throw new EntryNotFoundError(`no entry ${input.id} — refresh`);
  if (!input.dryRun) await input.sessionSource.revoke(rowId);
  return {
    store: "database",
    scope: "session",
    before: { version: "database", line: 0, text: row.rule },
    after: { version: "database", line: 0, text: "" },
    ...(input.dryRun ? { dryRun: true } : {}),
  };
}
