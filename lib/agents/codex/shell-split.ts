/**
 * How Codex splits a shell call before matching rules (core/src/exec_policy.rs commands_for_exec_policy,
 * shell-command/src/bash.rs). Only `[bash|zsh|sh, -lc|-c, SCRIPT]` is looked into; a script of plain words joined
 * by `&&`, `||`, `;`, `|` becomes one command per segment; a single command carrying a heredoc is reduced to its
 * words and marked complex (never known-safe, no automatic amendment); anything else is judged whole.
 * Word text is taken raw, as Codex does (no escape processing inside words or double quotes).
 */
import type { Node, Parser } from "web-tree-sitter";
import { fileStem } from "./paths";

const ALLOWED_KINDS = new Set([
  "program",
  "list",
  "pipeline",
  "command",
  "command_name",
  "word",
  "string",
  "string_content",
  "raw_string",
  "number",
  "concatenation",
]);
const ALLOWED_PUNCT = new Set(["&&", "||", ";", "|", '"', "'"]);

/** shell_detect.rs detect_shell_type, reduced to the shells bash.rs accepts. */
export function isPosixShell(program: string): boolean {
  if (program === "zsh" || program === "sh" || program === "bash") return true;
  if (program === "cmd" || program === "pwsh" || program === "powershell") return false;
  const stem = fileStem(program);
  return stem !== undefined && stem !== program && isPosixShell(stem);
}

/** bash.rs extract_bash_command: exactly three words, a bash/zsh/sh program and `-lc` or `-c`. */
export function extractBashScript(argv: readonly string[]): string | undefined {
  if (argv.length !== 3) return undefined;
  const [shell, flag, script] = argv as [string, string, string];
  if ((flag !== "-lc" && flag !== "-c") || !isPosixShell(shell)) return undefined;
  return script;
}

function parse(bash: Parser, script: string) {
  return bash.parse(script) ?? undefined;
}

/** bash.rs try_parse_word_only_commands_sequence over an already parsed tree. */
function wordOnlyCommands(root: Node): string[][] | undefined {
  if (root.hasError) return undefined;
  const commands: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    const kind = node.type;
    if (node.isNamed) {
      if (!ALLOWED_KINDS.has(kind)) return undefined;
      if (kind === "command") commands.push(node);
    } else {
      if (/[&;|]/.test(kind) && !ALLOWED_PUNCT.has(kind)) return undefined;
      if (!(ALLOWED_PUNCT.has(kind) || kind.trim() === "")) return undefined;
    }
    for (const c of node.children) if (c) stack.push(c);
  }
  commands.sort((a, b) => a.startIndex - b.startIndex);
  const out: string[][] = [];
  for (const cmd of commands) {
    const words = plainCommandWords(cmd);
    if (!words) return undefined;
    out.push(words);
  }
  return out;
}

function doubleQuoted(node: Node): string | undefined {
  if (node.namedChildren.some((c) => c && c.type !== "string_content")) return undefined;
  const t = node.text;
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : undefined;
}

function rawString(node: Node): string | undefined {
  const t = node.text;
  return t.length >= 2 && t.startsWith("'") && t.endsWith("'") ? t.slice(1, -1) : undefined;
}

function plainCommandWords(cmd: Node): string[] | undefined {
  const words: string[] = [];
  for (const child of cmd.namedChildren) {
    if (!child) continue;
    switch (child.type) {
      case "command_name": {
        const w = child.namedChild(0);
        if (!w || w.type !== "word") return undefined;
        words.push(w.text);
        break;
      }
      case "word":
      case "number":
        words.push(child.text);
        break;
      case "string": {
        const s = doubleQuoted(child);
        if (s === undefined) return undefined;
        words.push(s);
        break;
      }
      case "raw_string": {
        const s = rawString(child);
        if (s === undefined) return undefined;
        words.push(s);
        break;
      }
      case "concatenation": {
        let acc = "";
        for (const part of child.namedChildren) {
          if (!part) continue;
          let piece: string | undefined;
          if (part.type === "word" || part.type === "number") piece = part.text;
          else if (part.type === "string") piece = doubleQuoted(part);
          else if (part.type === "raw_string") piece = rawString(part);
          if (piece === undefined) return undefined;
          acc += piece;
        }
        if (acc === "") return undefined;
        words.push(acc);
        break;
      }
      default:
        return undefined;
    }
  }
  return words;
}

// One decision asks for the same script's segments several times (split, known-safe, dangerous): remember them.
const CACHE_MAX = 2048;
const plainCache = new WeakMap<Parser, Map<string, string[][] | null>>();

/** bash.rs parse_shell_lc_plain_commands. */
export function parseShellLcPlainCommands(argv: readonly string[], bash: Parser): string[][] | undefined {
  const script = extractBashScript(argv);
  if (script === undefined) return undefined;
  let cache = plainCache.get(bash);
  if (!cache) plainCache.set(bash, (cache = new Map()));
  const hit = cache.get(script);
  if (hit !== undefined) return hit === null ? undefined : hit.map((c) => c.slice());
  const tree = parse(bash, script);
  let result: string[][] | undefined;
  if (tree) {
    try {
      result = wordOnlyCommands(tree.rootNode);
    } finally {
      tree.delete();
    }
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(script, result ?? null);
  return result?.map((c) => c.slice());
}

const HEREDOC_ATTACHMENTS = new Set([
  "heredoc_body",
  "simple_heredoc_body",
  "heredoc_redirect",
  "herestring_redirect",
  "file_redirect",
  "redirected_statement",
]);

function hasNamedDescendant(node: Node, kind: string): boolean {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === kind) return true;
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return false;
}

function singleCommand(root: Node): Node | undefined {
  let found: Node | undefined;
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === "command") {
      if (found) return undefined;
      found = n;
    }
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return found;
}

const isLiteralWord = (n: Node) => (n.type === "word" || n.type === "number") && n.namedChildCount === 0;

/** bash.rs parse_shell_lc_single_command_prefix: a single heredoc command's literal words. */
export function parseShellLcSingleCommandPrefix(argv: readonly string[], bash: Parser): string[] | undefined {
  const script = extractBashScript(argv);
  if (script === undefined) return undefined;
  const tree = parse(bash, script);
  if (!tree) return undefined;
  try {
    const root = tree.rootNode;
    if (root.hasError || !hasNamedDescendant(root, "heredoc_redirect")) return undefined;
    const cmd = singleCommand(root);
    if (!cmd) return undefined;
    const words: string[] = [];
    for (const child of cmd.namedChildren) {
      if (!child) continue;
      if (child.type === "command_name") {
        const w = child.namedChild(0);
        if (!w || !isLiteralWord(w)) return undefined;
        words.push(w.text);
      } else if (child.type === "word" || child.type === "number") {
        if (!isLiteralWord(child)) return undefined;
        words.push(child.text);
      } else if (
        child.type === "variable_assignment" ||
        child.type === "comment" ||
        HEREDOC_ATTACHMENTS.has(child.type)
      ) {
        continue;
      } else return undefined;
    }
    return words.length ? words : undefined;
  } finally {
    tree.delete();
  }
}

export interface ExecPolicyCommands {
  commands: string[][];
  /** The heredoc fallback parser was used: never known-safe, no automatic amendment. */
  complex: boolean;
  how: "plain-segments" | "heredoc" | "whole";
}

/** exec_policy.rs commands_for_exec_policy. */
export function commandsForExecPolicy(argv: readonly string[], bash: Parser): ExecPolicyCommands {
  const plain = parseShellLcPlainCommands(argv, bash);
  if (plain && plain.length) return { commands: plain, complex: false, how: "plain-segments" };
  const single = parseShellLcSingleCommandPrefix(argv, bash);
  if (single) return { commands: [single], complex: true, how: "heredoc" };
  return { commands: [argv.slice()], complex: false, how: "whole" };
}
