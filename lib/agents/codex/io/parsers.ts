/**
 * Node-side loader of the two grammars the Codex core needs: tree-sitter-bash (how Codex splits `bash -lc`
 * scripts) and tree-sitter-python (the `.rules` reader). The wasm files ship in node_modules; nothing downloads.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Language, Parser } from "web-tree-sitter";
import { loadShellParser } from "../../shared/shell-parser";
import type { StorePaths } from "@/lib/stores/discover";
import type { CodexPaths } from "./discover";

export interface CodexParsers {
  bash: Parser;
  python: Parser;
}

async function load(): Promise<CodexParsers> {
  const req = createRequire(
    path.join(/*turbopackIgnore: true*/ process.env.COCKPIT_ROOT ?? process.cwd(), "package.json"),
  );
  const read = (f: string) => readFile(/*turbopackIgnore: true*/ req.resolve(f)).then((b) => new Uint8Array(b));
  // One web-tree-sitter runtime per process: let the shared loader initialise it first (two concurrent inits race).
  await loadShellParser();
  const [runtime, bashWasm, pythonWasm] = await Promise.all([
    read("web-tree-sitter/web-tree-sitter.wasm"),
    read("tree-sitter-bash/tree-sitter-bash.wasm"),
    read("tree-sitter-python/tree-sitter-python.wasm"),
  ]);
  await Parser.init({ wasmBinary: runtime });
  const [bashLang, pythonLang] = await Promise.all([Language.load(bashWasm), Language.load(pythonWasm)]);
  const bash = new Parser();
  bash.setLanguage(bashLang);
  const python = new Parser();
  python.setLanguage(pythonLang);
  return { bash, python };
}

let ready: Promise<CodexParsers> | undefined;

/** Load once per process; safe to call repeatedly. */
export function loadCodexParsers(): Promise<CodexParsers> {
  ready ??= load().catch((error) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

/** Where Codex's stores are for the cockpit's store paths: `~/.codex`, `<etc>/codex`, the agent's folder. */
export function codexPathsOf(paths: StorePaths, cwd?: string): CodexPaths {
  return {
    home: path.resolve(paths.home),
    codexHome: path.join(path.resolve(paths.home), ".codex"),
    etcRoot: path.join(paths.etcDir ?? "/etc", "codex"),
    cwd: path.resolve(paths.workspace, cwd ?? "."),
  };
}
