/**
 * Cursor CLI, self-contained (issue 25). Pure modules — tokens, config, match, call, decide, narrow, edit (text),
 * remember, entries, hook, hooks-config, jsonc-splice, connector (API injected) — and `io/` beside them for disk
 * access with injectable paths and environment: io/stores, io/context, io/decide-on-disk (read), io/write (write).
 * Not yet wired into the shared agent list, CLI verbs, cards or the Rules page (docs/agents/cursor.md, "Status").
 */
export { parseToken, formatToken, TOKEN_KINDS, type CursorToken, type TokenKind, type TokenParse } from "./tokens";
export {
  parseCursorConfig,
  CursorCliConfig,
  type CursorRule,
  type CursorScope,
  type CursorAction,
  type ParsedCursorConfig,
} from "./config";
export { globalConfigPath, projectConfigPaths, projectHooksPath, userHooksPath, type CursorEnv } from "./paths";
export { loadCursorStores, readCursorStore, findGitRoot, type CursorStoreOptions } from "./io/stores";
export { cursorEntries, findCursorEntry, cursorEntryId, CURSOR_FORMAT, type CursorEntry } from "./entries";
export { parseCursorCall, type CursorCall } from "./call";
export {
  decideCursor,
  effectiveRules,
  normalizeCursorMode,
  CURSOR_MODES,
  type CursorContext,
  type CursorDecision,
  type CursorMode,
  type CursorStoreView,
} from "./decide";
export { isNarrowerToken, tokenCovers } from "./narrow";
export { revokeText, narrowText, addText, type EntryRef } from "./edit";
export { editCursorStore, editHooksFile, type StoreTarget } from "./io/write";
export { rememberCursor, rememberTarget, tokenFor, type Remember } from "./remember";
export { loadCursorContext, loadMcpServers } from "./io/context";
export {
  CursorHookPayload,
  callOf,
  cardRequest,
  verdictFor,
  outputForCard,
  fallbackOutput,
  auditEvent,
  resolveMcpServer,
  workspaceOf,
  type CursorHookOutput,
  type GatePayload,
  type Verdict,
} from "./hook";
export {
  installHooks,
  removeHooks,
  installedEvents,
  hookCommand,
  isCockpitHandler,
  HOOK_EVENTS,
  HOOK_EVENT_NAMES,
} from "./hooks-config";
export { runCursorHook, type HookDeps, type HookRun, type Api } from "./connector";
export { decideCursorOnDisk, type DecideOnDisk } from "./io/decide-on-disk";
