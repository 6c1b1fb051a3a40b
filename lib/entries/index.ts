/** Server-side verbs behind the Rules page and /api/v1/entries: authorization, session source, audit rows. */
export {
  listWorkspaceEntries,
  ListWorkspaceEntriesInput,
  type EntryView,
  type WorkspaceListing,
} from "./list-workspace-entries";
export { revokeWorkspaceEntry, RevokeWorkspaceEntryInput } from "./revoke-workspace-entry";
export {
  narrowWorkspaceEntry,
  NarrowWorkspaceEntryInput,
  previewNarrowing,
  PreviewNarrowingInput,
  suggestWorkspaceNarrowings,
  SuggestNarrowingsInput,
} from "./narrow-workspace-entry";
export {
  addWorkspaceEntry,
  AddWorkspaceEntryInput,
  addWorkspaceSessionEntry,
  AddWorkspaceSessionEntryInput,
} from "./add-workspace-entry";
export {
  workspaceHygiene,
  WorkspaceHygieneInput,
  cleanUpWorkspace,
  CleanUpInput,
  type WorkspaceHygiene,
  type CleanUpFile,
} from "./hygiene-workspace";
export { recordCliStoreWrite, RecordCliWriteInput } from "./record-cli-write";
