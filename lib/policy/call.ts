import { analyzeShell } from "./shell/analyze";
import { resolveCallPath, type PathEnv } from "./paths";
import { callNames, PATH_FIELDS, toolKind, type ToolKind } from "./tools";
import type { PolicyContext, ShellAnalysis, ToolCall } from "./types";

/** What the engine needs to know about a call, computed once per decision. */
export interface CallFacts {
  call: ToolCall;
  /** Lower-case names the call answers to (own name, family, aliases). */
  names: string[];
  exact: string;
  kind: ToolKind;
  /** Absolute paths the call touches (file tools only; shell arguments are not a file boundary). */
  paths: string[];
  /** mevedel resource addresses among the operands (`work://x`, `memory://x`, `artifact://x`), kept out of `paths`. */
  resources: { scheme: string; rest: string }[];
  /** A write whose input names no path. */
  pathMissing: boolean;
  command: string | null;
  shell: ShellAnalysis | null;
  host: string | null;
  /** Agent role / subagent type. */
  name: string | null;
  env: PathEnv;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** Paths named in a patch (`*** Update File: x`, `+++ b/x`). */
function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\+\+\+ (?:b\/)?(.+)$/gm)) {
    const p = (m[1] ?? m[2]).trim();
    if (p && p !== "/dev/null") out.push(p);
  }
  return out;
}

/** Normalise a call: its names, kind, absolute paths, parsed command, host. */
export function callFacts(call: ToolCall, ctx: PolicyContext): CallFacts {
  const input = call.input && typeof call.input === "object" ? call.input : {};
  const env: PathEnv = { workspaceRoot: ctx.workspaceRoot, cwd: ctx.cwd ?? ctx.workspaceRoot, home: ctx.home };
  const tool = String(call.tool ?? "");
  const kind = toolKind(tool);
  const raw: string[] = [];
  if (kind === "read" || kind === "edit") {
    for (const f of PATH_FIELDS) {
      const v = str(input[f]);
      if (v) {
        raw.push(v);
        break;
      }
    }
    for (const f of ["paths", "file_paths", "files"]) {
      const v = input[f];
      if (Array.isArray(v)) for (const x of v) if (str(x)) raw.push(x as string);
    }
    const patch = str(input.patch) ?? str(input.input);
    if (kind === "edit" && patch) raw.push(...patchPaths(patch));
  }
  // Searches without a path run in the working directory.
  if (kind === "read" && raw.length === 0 && /grep|glob|directory/i.test(tool)) raw.push(env.cwd);
  // mevedel addresses resources by scheme; they are not file-system paths (their authority is modelled apart).
  const resources: { scheme: string; rest: string }[] = [];
  const fsRaw = ctx.dialect.resourceAddresses
    ? raw.filter((p) => {
        const m = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/is.exec(p);
        if (m) resources.push({ scheme: m[1].toLowerCase(), rest: m[2] });
        return !m;
      })
    : raw;
  const paths = fsRaw.map((p) => resolveCallPath(p, env));
  const command =
    kind === "shell" ? str(input.command) : kind === "eval" ? (str(input.expression) ?? str(input.code)) : null;
  let host: string | null = null;
  const url = str(input.url);
  if (url) {
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      host = null;
    }
  }
  return {
    call,
    names: callNames(tool),
    exact: tool.toLowerCase(),
    kind,
    paths,
    resources,
    pathMissing: kind === "edit" && paths.length === 0 && resources.length === 0,
    command,
    shell: kind === "shell" && command ? analyzeShell(command, ctx.shell) : null,
    host,
    name: str(input.subagent_type) ?? str(input.name) ?? str(input.role),
    env,
  };
}
