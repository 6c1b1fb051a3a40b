import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { createGeminiShell, type GeminiShell } from "../shell";

const WASM_FILES = ["web-tree-sitter/web-tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"];
let ready: Promise<GeminiShell> | undefined;

/**
 * Reads the tree-sitter runtime and bash grammar (the project's own web-tree-sitter and tree-sitter-bash) once
 * and builds the Gemini shell view. Safe to call repeatedly.
 */
export function loadGeminiShell(root = process.env.COCKPIT_ROOT ?? process.cwd()): Promise<GeminiShell> {
  ready ??= (async () => {
    const req = createRequire(path.join(/*turbopackIgnore: true*/ root, "package.json"));
    const [runtime, grammar] = await Promise.all(
      WASM_FILES.map((f) => readFile(/*turbopackIgnore: true*/ req.resolve(f))),
    );
    return createGeminiShell({ runtime: new Uint8Array(runtime!), grammar: new Uint8Array(grammar!) });
  })().catch((e: unknown) => {
    ready = undefined;
    throw e;
  });
  return ready;
}
