import { Language, Parser } from "web-tree-sitter";
import type { ShellAnalysis, ShellParser, ShellPart } from "../types";

export type { ShellParser };
import { deleteFacts, isDangerousPart, isReadOnlyPart, isRootOrHome, isSecretPath, safeFileTargets } from "./classify";
import { walkStatement, type WalkState } from "./walk";
import { stripWrappers } from "./wrappers";

const MAX_LEN = 16_384;
const PARSE_BUDGET_MS = 30;
const WALK_BUDGET_MS = 20;

/**
 * Build a shell parser from the wasm bytes. `grammar` is tree-sitter-bash.wasm; `runtime` is web-tree-sitter.wasm
 * (optional where the runtime can locate it itself). The engine keeps no parser of its own: the caller loads the
 * bytes (lib/agents/shared/shell-parser.ts on Node) and hands the parser to `decide` in the context.
 */
export async function createShellParser(opts: { grammar: Uint8Array; runtime?: Uint8Array }): Promise<ShellParser> {
  await Parser.init(opts.runtime ? { wasmBinary: opts.runtime } : undefined);
  const lang = await Language.load(opts.grammar);
  const p = new Parser();
  p.setLanguage(lang);
  // Decisions repeat the same commands (cards, re-checks, benchmarks): cache analyses by command text.
  const cache = new Map<string, ShellAnalysis>();
  return {
    analyze(command: string): ShellAnalysis {
      const hit = cache.get(command);
      if (hit) {
        cache.delete(command);
        cache.set(command, hit);
        return hit;
      }
      const result = analyzeUncached(command, p);
      cache.set(command, result);
      if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
      return result;
    },
    clearCache: () => cache.clear(),
  };
}

const CACHE_MAX = 4096;

/** Analyse a command line: parts, read-only, secrets, deletes, safe file commands. Without a parser every command is unparsable. */
export function analyzeShell(command: string, shell?: ShellParser | null): ShellAnalysis {
  return shell ? shell.analyze(command) : analyzeUncached(command, null);
}

function parseInto(parser: Parser | null, text: string, origin: ShellPart["origin"], st: WalkState): boolean {
  if (!parser || text.length > MAX_LEN) return false;
  const started = performance.now();
  let tree;
  try {
    // The progress callback cancels pathological inputs so a decision never hangs.
    // Only long inputs can be cancelled, so short commands parse the same way under any load.
    tree = parser.parse(
      text,
      null,
      text.length > 512 ? { progressCallback: () => performance.now() - started > PARSE_BUDGET_MS } : undefined,
    );
  } catch {
    parser.reset();
    return false;
  }
  // A cancelled parse resumes on the next call unless reset: the next command would be parsed as the rest of this one.
  if (!tree) {
    parser.reset();
    return false;
  }
  try {
    const before = st.syntaxError;
    st.syntaxError = false;
    walkStatement(tree.rootNode, origin, st);
    const ok = !st.syntaxError && !tree.rootNode.hasError;
    st.syntaxError = before || !ok;
    return ok;
  } finally {
    tree.delete();
  }
}

/** Conservative token scan used when parsing fails: split on separators, look for rm of root/home. */
function rawScan(text: string, origin: ShellPart["origin"], st: WalkState): void {
  for (const seg of text.split(/[;&|()`\n]+|\$\(/)) {
    const argv = seg.replace(/["']/g, "").trim().split(/\s+/).filter(Boolean);
    if (!argv.length) continue;
    const s = stripWrappers(argv);
    st.parts.push({
      text: seg.trim().replace(/\s+/g, " "),
      argv,
      core: s.core,
      assignments: s.assignments,
      wrappers: s.wrappers,
      writes: [],
      origin,
      dynamic: true,
    });
    // Quotes may have swallowed separators: also look at every `rm`/`find` that appears inside the segment.
    argv.forEach((w, k) => {
      if (k > 0 && /(^|\/)(rm|find)$/.test(w)) {
        const tail = argv.slice(k);
        st.parts.push({
          text: tail.join(" "),
          argv: tail,
          core: tail,
          assignments: [],
          wrappers: [],
          writes: [],
          origin: "payload",
          dynamic: true,
        });
      }
    });
  }
}

function analyzeUncached(command: string, parser: Parser | null): ShellAnalysis {
  const st: WalkState = {
    parts: [],
    unsupported: [],
    syntaxError: false,
    extraWrites: [],
    extraReads: [],
    background: false,
    depth: 0,
    payload: () => {},
    budget: 5_000,
    deadline: performance.now() + WALK_BUDGET_MS,
  };
  st.payload = (text, depth) => {
    if (depth > 8) {
      st.unsupported.push("payload nesting too deep");
      return;
    }
    const saved = st.depth;
    st.depth = depth;
    const errBefore = st.syntaxError;
    if (!parseInto(parser, text, "payload", st)) rawScan(text, "payload", st);
    // A broken payload does not make the outer command unparsable: the payload is just an argument.
    st.syntaxError = errBefore;
    st.depth = saved;
  };
  const parseable = parseInto(parser, command, "top", st);
  if (!parseable) {
    if (!parser || command.length > MAX_LEN)
      st.unsupported.push(parser ? "command too long" : "shell parser not initialised");
    else st.unsupported.push("syntax error");
    rawScan(command, "top", st);
  } else if (st.budget < 0 || st.unsupported.includes("nesting too deep")) {
    // The walk stopped early: let the raw scan look at what it did not reach.
    rawScan(command, "payload", st);
  }
  return classify(command, parseable, st);
}

function classify(command: string, parseable: boolean, st: WalkState): ShellAnalysis {
  const parts = st.parts;
  const secretArgs: string[] = [];
  const deleteTargets: string[] = [];
  const fileTargets: string[] = [];
  let recursiveDelete = false;
  let rootHomeDelete = false;
  let dangerous = false;
  let readOnly = parseable && st.extraWrites.length === 0 && parts.length > 0;
  let safeFile = parseable && st.extraWrites.length === 0 && parts.length > 0;
  for (const p of parts) {
    const del = deleteFacts(p.core);
    if (del.isDelete) {
      deleteTargets.push(...del.targets);
      recursiveDelete ||= del.recursive;
      if (del.targets.some(isRootOrHome)) rootHomeDelete = true;
    }
    dangerous ||= isDangerousPart(p);
    if (p.origin === "payload") continue; // the outer command is classified instead
    const ro = isReadOnlyPart(p);
    if (ro) for (const a of p.argv.slice(1)) if (isSecretPath(a)) secretArgs.push(a);
    readOnly &&= ro;
    const targets = ro ? [] : safeFileTargets(p);
    if (!ro && targets === null) safeFile = false;
    else if (targets) fileTargets.push(...targets);
  }
  if (rootHomeDelete) dangerous = true;
  const unsupported = [...new Set(st.unsupported)];
  const allowable = parseable && unsupported.length === 0;
  return {
    command,
    parseable,
    allowable,
    parts,
    readOnly: readOnly && allowable,
    secretArgs,
    recursiveDelete,
    rootHomeDelete,
    deleteTargets,
    dangerous,
    safeFileCommand: safeFile && allowable && !recursiveDelete,
    fileTargets,
    writes: [...parts.flatMap((p) => p.writes), ...st.extraWrites],
    reads: [...parts.flatMap((p) => p.reads ?? []), ...st.extraReads],
    ...(st.background ? { background: true } : {}),
    unsupported,
  };
}
