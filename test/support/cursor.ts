// Fixtures for the Cursor tests (not imported by the modules themselves).
import { parseCursorConfig, type CursorScope } from "@/lib/agents/cursor/config";
import type { CursorContext, CursorMode, CursorStoreView } from "@/lib/agents/cursor/decide";
import type { ShellParser } from "@/lib/policy";

export const WS = "/w";
export const HOME = "/home/u";
export const GLOBAL = `${HOME}/.cursor/cli-config.json`;
export const PROJECT = `${WS}/.cursor/cli.json`;

/** A store from a config object (or raw text), as the loader would list it. */
export function store(
  content: object | string,
  file = PROJECT,
  scope: CursorScope = file === GLOBAL ? "global" : "workspace",
): CursorStoreView {
  const text = typeof content === "string" ? content : JSON.stringify(content, null, 2);
  const p = parseCursorConfig(text, file, scope);
  return {
    path: file,
    scope,
    valid: p.valid,
    error: p.error,
    strictJson: p.strictJson,
    definesAllow: p.definesAllow,
    rules: p.rules,
  };
}

export function perms(allow: string[] = [], deny: string[] = []): object {
  return { permissions: { allow, deny } };
}

export function ctxOf(
  stores: CursorStoreView[],
  shell: ShellParser | null,
  mode?: CursorMode,
  cwd?: string,
): CursorContext {
  return { workspaceRoot: WS, home: HOME, stores, shell, mode, cwd };
}
