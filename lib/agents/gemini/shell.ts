import { Language, Parser, type Node, type Tree } from "web-tree-sitter";
import { parse as shellQuoteParse, type ParseEntry } from "shell-quote";

/**
 * Gemini CLI's view of a shell command line (facts from @google/gemini-cli-core 0.61.0 utils/shell-utils.ts):
 * tree-sitter-bash for sub-commands and redirections, shell-quote for the argv its heuristics read.
 * No I/O: the caller hands in the wasm bytes (see io/shell-wasm.ts). POSIX shells only — on Windows Gemini
 * parses with PowerShell, which the cockpit does not model.
 */

export interface CommandDetail {
  /** Command name, or a pseudo-name such as `redirection (>)`, `command substitution`, `subshell`. */
  name: string;
  /** Source text of the node, trimmed. */
  text: string;
  startIndex: number;
  args?: string[];
}

export interface ParsedCommand {
  details: CommandDetail[];
  hasError: boolean;
}

/** The pseudo-commands that are parts of a command line rather than commands (`REDIRECTION_NAMES`). */
export const REDIRECTION_NAMES: ReadonlySet<string> = new Set([
  "redirection (<)",
  "redirection (>)",
  "heredoc (<<)",
  "herestring (<<<)",
  "command substitution",
  "backtick substitution",
  "process substitution",
  "subshell",
]);

export interface GeminiShell {
  /** `parseCommandDetails`: null when the line is empty/whitespace or the parse timed out. */
  details(command: string): ParsedCommand | null;
  /** `hasRedirection`: a redirected statement, file redirect, heredoc or herestring anywhere in the tree. */
  hasRedirection(command: string): boolean;
}

const PARSE_TIMEOUT_MS = 1000;
const CACHE_MAX = 2048;

/** Build the parser from the tree-sitter runtime and bash grammar wasm bytes. */
export async function createGeminiShell(opts: { runtime: Uint8Array; grammar: Uint8Array }): Promise<GeminiShell> {
  await Parser.init({ wasmBinary: opts.runtime });
  const lang = await Language.load(opts.grammar);
  const parser = new Parser();
  parser.setLanguage(lang);
  return shellFromParser(parser);
}

function shellFromParser(parser: Parser): GeminiShell {
  const detailCache = new Map<string, ParsedCommand | null>();
  const redirCache = new Map<string, boolean>();
  const remember = <T>(cache: Map<string, T>, key: string, value: T): T => {
    cache.set(key, value);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
    return value;
  };

  const parseTree = (command: string): Tree | null => {
    if (!command.trim()) return null;
    const deadline = performance.now() + PARSE_TIMEOUT_MS;
    let timedOut = false;
    try {
      const tree = parser.parse(command, null, {
        progressCallback: () => {
          if (performance.now() > deadline) {
            timedOut = true;
            return true;
          }
          return false;
        },
      });
      if (timedOut || !tree) return null;
      return tree;
    } catch {
      return null;
    }
  };

  return {
    details(command) {
      if (detailCache.has(command)) return detailCache.get(command)!;
      const tree = parseTree(command);
      if (!tree) return remember(detailCache, command, null);
      try {
        const details = collectCommandDetails(tree.rootNode, command);
        const hasError = tree.rootNode.hasError || details.length === 0 || hasPromptCommandTransform(tree.rootNode);
        details.sort((a, b) => a.startIndex - b.startIndex);
        return remember(detailCache, command, { details, hasError });
      } finally {
        tree.delete();
      }
    },
    hasRedirection(command) {
      if (!/[><]/.test(command)) return false;
      const hit = redirCache.get(command);
      if (hit !== undefined) return hit;
      const tree = parseTree(command);
      if (!tree) return remember(redirCache, command, true);
      try {
        const stack: Node[] = [tree.rootNode];
        while (stack.length > 0) {
          const cur = stack.pop()!;
          if (
            cur.type === "redirected_statement" ||
            cur.type === "file_redirect" ||
            cur.type === "heredoc_redirect" ||
            cur.type === "herestring_redirect"
          ) {
            return remember(redirCache, command, true);
          }
          for (let i = cur.childCount - 1; i >= 0; i--) {
            const c = cur.child(i);
            if (c) stack.push(c);
          }
        }
        return remember(redirCache, command, false);
      } finally {
        tree.delete();
      }
    },
  };
}

function normalizeCommandName(raw: string): string {
  if (raw.length >= 2) {
    const first = raw[0];
    const last = raw[raw.length - 1];
    if ((first === '"' && last === '"') || (first === "'" && last === "'")) return raw.slice(1, -1);
  }
  return raw.trim();
}

function nameOf(node: Node): string | null {
  switch (node.type) {
    case "command": {
      const n = node.childForFieldName("name");
      return n ? normalizeCommandName(n.text) : null;
    }
    case "declaration_command":
    case "unset_command":
    case "test_command": {
      const first = node.child(0);
      return first ? normalizeCommandName(first.text) : null;
    }
    case "file_redirect": {
      for (let i = 0; i < node.childCount; i++) {
        const c = node.child(i);
        if (c && c.text.includes("<")) return "redirection (<)";
        if (c && c.text.includes(">")) return "redirection (>)";
      }
      return "redirection (>)";
    }
    case "heredoc_redirect":
      return "heredoc (<<)";
    case "herestring_redirect":
      return "herestring (<<<)";
    case "command_substitution":
      return "command substitution";
    case "backtick_substitution":
      return "backtick substitution";
    case "process_substitution":
      return "process substitution";
    case "subshell":
      return "subshell";
    default:
      return null;
  }
}

function collectCommandDetails(root: Node, source: string): CommandDetail[] {
  const stack: Node[] = [root];
  const details: CommandDetail[] = [];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    const name = nameOf(cur);
    if (name) {
      const detail: CommandDetail = {
        name,
        text: source.slice(cur.startIndex, cur.endIndex).trim(),
        startIndex: cur.startIndex,
      };
      if (cur.type === "command") {
        const nameNode = cur.childForFieldName("name");
        const args: string[] = [];
        for (let i = 0; i < cur.childCount; i++) {
          const c = cur.child(i);
          if (c && c.type === "word" && c.startIndex !== nameNode?.startIndex) args.push(c.text);
        }
        if (args.length > 0) detail.args = args;
      }
      details.push(detail);
    }
    for (let i = cur.childCount - 1; i >= 0; i--) {
      const c = cur.child(i);
      if (c) stack.push(c);
    }
  }
  return details;
}

/** `${var@P}` expands the prompt string (which can run commands): Gemini counts it as a parse error. */
function hasPromptCommandTransform(root: Node): boolean {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    if (cur.type === "expansion") {
      for (let i = 0; i < cur.childCount - 1; i++) {
        if (cur.child(i)?.text === "@" && cur.child(i + 1)?.text?.toLowerCase() === "p") return true;
      }
    }
    for (let i = cur.namedChildCount - 1; i >= 0; i--) {
      const c = cur.namedChild(i);
      if (c) stack.push(c);
    }
  }
  return false;
}

/**
 * `stripShellWrapper`: `bash -c "…"`, `sh -c`, `zsh -c` (optionally with a path), `cmd.exe /c`, `powershell -Command`
 * and `pwsh -Command` give their payload; anything else is returned trimmed.
 */
export function stripShellWrapper(command: string): string {
  const pattern =
    /^\s*(?:(?:(?:\S+\/)?(?:sh|bash|zsh))\s+-c|cmd\.exe\s+\/c|powershell(?:\.exe)?\s+(?:-NoProfile\s+)?-Command|pwsh(?:\.exe)?\s+(?:-NoProfile\s+)?-Command)\s+/i;
  const m = command.match(pattern);
  if (!m) return command.trim();
  let inner = command.substring(m[0].length).trim();
  if (
    inner.length >= 2 &&
    ((inner.startsWith('"') && inner.endsWith('"')) || (inner.startsWith("'") && inner.endsWith("'")))
  ) {
    const posix = m[0].trim().endsWith("-c");
    if (posix && inner.startsWith('"')) {
      try {
        const parsed = shellQuoteParse(inner, (key) => "$" + key);
        const first = parsed[0];
        inner = parsed.length === 1 && typeof first === "string" ? first : inner.substring(1, inner.length - 1);
      } catch {
        inner = inner.substring(1, inner.length - 1);
      }
    } else {
      inner = inner.substring(1, inner.length - 1);
    }
  }
  return inner;
}

/** `extractStringFromParseEntry`: operators become their token (`&&`, `|`, …), globs their pattern, comments ''. */
export function parseEntryText(entry: ParseEntry): string {
  if (typeof entry === "string") return entry;
  if ("pattern" in entry) return entry.pattern;
  if ("op" in entry) return entry.op;
  return "";
}

/** The argv Gemini's heuristics read: `shell-quote` over the whole command line (may throw on odd input). */
export function shellQuoteArgs(command: string): string[] {
  return shellQuoteParse(command).map(parseEntryText);
}

/** `splitCommands`: the non-redirection sub-commands' text, or [] when the line does not parse cleanly. */
export function splitCommands(shell: GeminiShell | null, command: string): string[] {
  const parsed = shell?.details(command);
  if (!parsed || parsed.hasError) return [];
  return parsed.details
    .filter((d) => !REDIRECTION_NAMES.has(d.name))
    .map((d) => d.text)
    .filter(Boolean);
}

/** `getCommandRoots`: every command name in the line (what "always allow" remembers as `commandPrefix`). */
export function commandRoots(shell: GeminiShell, command: string): string[] {
  if (!command) return [];
  const parsed = shell.details(command);
  if (!parsed || parsed.hasError) return [];
  return parsed.details
    .map((d) => d.name)
    .filter((n) => !REDIRECTION_NAMES.has(n))
    .filter(Boolean);
}
