/** Backing-store adapters: discovery, parsing, listing and safe edits of permission stores. */
export { listEntries, loadAllStores, type EntryListing, type ListEntriesInput } from "./list-entries";
export { revokeEntry, revokeEntryDetailed, type RevokeEntryInput } from "./revoke-entry";
export { narrowEntry, previewNarrowing, type NarrowEntryInput, type NarrowResult } from "./narrow-entry";
export { addEntry, type AddEntryInput, type AddResult } from "./add-entry";
export { suggestNarrowings, type SuggestOptions } from "./suggest-narrowings";
export { sweepStaleTemps, writeAtomically, assertNoSymlinks } from "./atomic-write";
export {
  configureStoreReads,
  readStoreBytes,
  storeReadLimits,
  DEFAULT_STORE_READ_LIMITS,
  type StoreReadLimits,
} from "./read-store";
export { sweepStoreFolders } from "./sweep-store-folders";
export { discoverStores, targetStore, DEFAULT_MANAGED_SETTINGS, type StoreLocation, type StorePaths } from "./discover";
export { sessionEntryId, type SessionEntryRow, type SessionEntrySource } from "./session";
export { readSexps, printDatum, SexpError, type Datum } from "@/lib/sexp/read";
export { GLOBAL_WARNING, type WriteResult } from "./write-common";
export type * from "./types";
