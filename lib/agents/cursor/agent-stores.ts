/**
 * Cursor's stores behind the agent interface: `~/.cursor/cli-config.json` (or under `$XDG_CONFIG_HOME` /
 * `$CURSOR_CONFIG_DIR`) and every `.cursor/cli.json` from the git root down to the folder, listed, revoked, narrowed
 * and added to in place with jsonc-parser (every other byte kept), compare-and-swap on the listed version.
 */
import path from "node:path";
import { ConflictError, InvalidInputError, NotFoundError, ReadOnlyStoreError } from "@/lib/stores/errors";
import type { AgentStores, StoreScope, StoreWrite } from "../types";
import { cursorEnv } from "./agent-engine";
import { parseCursorConfig, type CursorRule } from "./config";
import { addText, narrowText, revokeText } from "./edit";
import { cursorEntryId, findCursorEntry } from "./entries";
import { loadCursorStores, type CursorStore } from "./io/stores";
import { editCursorStore } from "./io/write";
import { lintCursor } from "./lint";
import { cursorListing } from "./listing";
import { globalConfigPath, PROJECT_CONFIG } from "./paths";

const GLOBAL_WARNING = "global entry: this file affects every project";

function read(scope: StoreScope): Promise<CursorStore[]> {
  return loadCursorStores({
    home: scope.home,
    env: cursorEnv(scope.home),
    workspace: scope.workspace,
    ...(scope.cwd ? { cwd: scope.cwd } : {}),
  });
}

function lineText(text: string, line: number): string {
  return line > 0 ? (text.split("\n")[line - 1]?.replace(/\r$/, "") ?? "") : "";
}

/** The line of `permissions.<action>[index]` in a text (0 when it is not there). */
function lineOf(text: string, file: string, store: CursorStore, pick: (r: CursorRule) => boolean): number {
  return parseCursorConfig(text, file, store.scope).rules.find(pick)?.line ?? 0;
}

async function locate(target: { id: string; expectedVersion?: string } & StoreScope) {
  const stores = await read(target);
  const found = findCursorEntry(stores, target.id);
  if (!found) throw new NotFoundError(`no entry ${target.id} — refresh`);
  if (target.expectedVersion && target.expectedVersion !== found.store.version) throw new ConflictError();
  if (!found.store.writable)
    throw new ReadOnlyStoreError(
      `${found.store.path} is read-only${found.store.readOnlyReason ? `: ${found.store.readOnlyReason}` : ""}`,
    );
  return found;
}

function written(
  store: CursorStore,
  result: { before: string; after: string; version: string },
  lines: { before: number; after: number },
  dryRun: boolean | undefined,
): Omit<StoreWrite, "entry"> {
  return {
    store: store.path,
    scope: store.scope,
    before: { version: store.version, line: lines.before, text: lineText(result.before, lines.before) },
    after: {
      version: dryRun ? store.version : result.version,
      line: lines.after,
      text: lineText(result.after, lines.after),
    },
    ...(store.scope === "global" ? { scopeWarning: GLOBAL_WARNING } : {}),
    ...(dryRun ? { dryRun: true } : {}),
  };
}

export const stores: AgentStores = {
  async list(scope) {
    return cursorListing(await read(scope), scope);
  },

  async revoke(target) {
    const { store, rule } = await locate(target);
    const entry = cursorListing([store], target).entries.find((e) => e.id === target.id)!;
    const result = await editCursorStore(
      { file: store.path, scope: store.scope, root: store.root, expectedVersion: store.version },
      (text) => revokeText(text, store.path, store.scope, { action: rule.action, index: rule.index, text: rule.text }),
      target.dryRun,
    );
    return { ...written(store, result, { before: rule.line, after: rule.line }, target.dryRun), entry };
  },

  async narrow(target) {
    const { store, rule } = await locate(target);
    const entry = cursorListing([store], target).entries.find((e) => e.id === target.id)!;
    const ref = { action: rule.action, index: rule.index, text: rule.text };
    const result = await editCursorStore(
      { file: store.path, scope: store.scope, root: store.root, expectedVersion: store.version },
      (text) => narrowText(text, store.path, store.scope, ref, target.to),
      target.dryRun,
    );
    const to = target.to.trim() === "deny" ? rule.text : target.to.trim();
    const action = target.to.trim() === "deny" ? "deny" : rule.action;
    const after = lineOf(result.after, store.path, store, (r) => r.action === action && r.text === to);
    return {
      ...written(store, result, { before: rule.line, after }, target.dryRun),
      entry,
      from: rule.text,
      to: target.to.trim() === "deny" ? `deny ${rule.text}` : to,
    };
  },

  async add(input) {
    if (input.action === "ask")
      throw new InvalidInputError(
        "Cursor has no ask list: whatever no allow entry covers asks — revoke the allow entry instead",
      );
    const all = await read(input);
    const ws = path.resolve(input.workspace);
    const fileName = input.file ?? (input.scope === "global" ? "cli-config.json" : "cli.json");
    const file =
      input.scope === "global"
        ? globalConfigPath({ home: input.home, env: cursorEnv(input.home) }).path
        : path.join(ws, PROJECT_CONFIG);
    if (path.basename(file) !== fileName)
      throw new InvalidInputError(
        `Cursor's ${input.scope} permissions live in ${path.basename(file)}, not "${fileName}"`,
      );
    const listed = all.find((s) => s.path === file);
    const store: CursorStore = listed ?? {
      path: file,
      scope: input.scope,
      kind: input.scope === "global" ? "cli-config" : "cli",
      exists: false,
      version: "missing",
      root: input.scope === "global" ? path.resolve(input.home) : ws,
      valid: true,
      strictJson: true,
      definesAllow: false,
      rules: [],
      warnings: [],
      writable: true,
    };
    if (!store.writable)
      throw new ReadOnlyStoreError(`${file} is read-only${store.readOnlyReason ? `: ${store.readOnlyReason}` : ""}`);
    if (input.expectedVersion && input.expectedVersion !== store.version) throw new ConflictError();
    const token = input.rule.trim();
    const there = store.rules.find((r) => r.action === input.action && r.text === token);
    if (there) {
      const same = { version: store.version, line: there.line, text: token };
      return {
        id: cursorEntryId(file, input.action, token, 0),
        unchanged: true,
        store: file,
        scope: store.scope,
        before: same,
        after: same,
      };
    }
    const result = await editCursorStore(
      { file, scope: store.scope, root: store.root, expectedVersion: store.version },
      (text) => addText(text, file, store.scope, input.action as "allow" | "deny", token),
      input.dryRun,
    );
    const after = lineOf(result.after, file, store, (r) => r.action === input.action && r.text === token);
    return {
      ...written(store, result, { before: 0, after }, input.dryRun),
      id: cursorEntryId(file, input.action, token, 0),
      unchanged: false,
    };
  },

  async lint(scope) {
    const all = await read(scope);
    return { findings: lintCursor(all), entries: all.reduce((n, s) => n + s.rules.length, 0) };
  },

  workspaceFiles(scope) {
    const dot = path.join(path.resolve(scope.workspace), ".cursor");
    return [path.join(dot, "cli.json"), path.join(dot, "hooks.json")];
  },
};
