/**
 * Cursor's stores as the cockpit lists them (`cockpit entries`, the Rules page): every file Cursor reads for the folder,
 * missing ones included (an add creates them), and one entry per `permissions.allow|deny` string. Pure.
 */
import type { StoreListing } from "../types";
import type { CursorStore } from "./config";
import { CURSOR_FORMAT, cursorEntries } from "./entries";

type Entry = StoreListing["entries"][number];
type StoreInfo = StoreListing["stores"][number];

export function storeInfos(stores: readonly CursorStore[], paths: { workspace: string }): StoreInfo[] {
  return stores.map((s) => ({
    path: s.path,
    format: CURSOR_FORMAT,
    agent: "cursor",
    scope: s.scope,
    version: s.version,
    valid: s.valid,
    ...(s.error ? { error: s.error } : {}),
    writable: s.writable,
    ...(s.readOnlyReason ? { readOnlyReason: s.readOnlyReason } : {}),
    base: paths.workspace,
    entryCount: s.rules.length,
  }));
}

export function cursorListing(stores: CursorStore[], paths: { workspace: string }): StoreListing {
  const entries: Entry[] = cursorEntries(stores).map((e) => ({
    id: e.id,
    scope: e.scope,
    kind: "rule",
    agent: "cursor",
    action: e.action,
    rule: e.rule,
    tool: e.tool,
    specifier: e.specifier,
    ...(e.malformed ? { malformed: e.malformed } : {}),
    store: e.store,
    line: e.line,
    writable: e.writable,
  }));
  return { entries, stores: storeInfos(stores, paths) };
}
