import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { createShellParser, type ShellParser } from "@/lib/policy";

const WASM_FILES = ["web-tree-sitter/web-tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"];

async function load(): Promise<ShellParser> {
  // Resolved at run time from the project root: a literal require.resolve("….wasm") makes Turbopack try to bundle it.
  const req = createRequire(
    path.join(/*turbopackIgnore: true*/ process.env.COCKPIT_ROOT ?? process.cwd(), "package.json"),
  );
  const [runtime, grammar] = await Promise.all(
    WASM_FILES.map((f) => readFile(/*turbopackIgnore: true*/ req.resolve(f))),
  );
  return createShellParser({ runtime: new Uint8Array(runtime!), grammar: new Uint8Array(grammar!) });
}

let ready: Promise<ShellParser> | undefined;

/**
 * Node-side loader: reads the tree-sitter runtime and bash grammar wasm files once and builds the shell
 * parser the engine receives in `PolicyContext.shell`. lib/policy itself does no I/O; safe to call repeatedly.
 */
export function loadShellParser(): Promise<ShellParser> {
  ready ??= load().catch((error) => {
    ready = undefined;
    throw error;
  });
  return ready;
}
