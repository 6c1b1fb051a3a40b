/**
 * Cursor CLI, self-contained (issue 25). Pure deciding modules — tokens, config, match, decide, narrow, remember,
 * hook, hooks-config, jsonc-splice — and I/O beside them with injectable paths — paths/stores/context (read), edit and
 * hooks-config's `editHooksFile` (write), connector (the hook run, API injected). Not yet wired into the shared
 * agent list, CLI verbs, cards or the Rules page: the agent-interface phase does that (see docs/agents/cursor.md).
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
export { loadCursorStores, readCursorStore, findGitRoot, type CursorStore, type CursorStoreOptions } from "./stores";
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
export { revokeText, narrowText, addText, editCursorStore, type EntryRef, type StoreTarget } from "./edit";
export { rememberCursor, rememberTarget, tokenFor, type Remember } from "./remember";
export { loadCursorContext, loadMcpServers, workspaceOf } from "./context";
export {
  CursorHookPayload,
  callOf,
  cardRequest,
  verdictFor,
  outputForCard,
  fallbackOutput,
  auditEvent,
  resolveMcpServer,
  type CursorHookOutput,
  type GatePayload,
  type Verdict,
} from "./hook";
export {
  installHooks,
  removeHooks,
  installedEvents,
  editHooksFile,
  hookCommand,
  isCockpitHandler,
  HOOK_EVENTS,
  HOOK_EVENT_NAMES,
} from "./hooks-config";
export { runCursorHook, type HookDeps, type HookRun, type Api } from "./connector";
export { decideCursorOnDisk, type DecideOnDisk } from "./decide-on-disk";
