import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { initShell } from "./shell/analyze";

const WASM_FILES = ["web-tree-sitter/web-tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"];

async function load(): Promise<void> {
  // Resolved at run time from the project root: a literal require.resolve("….wasm") makes Turbopack try to bundle it.
  const req = createRequire(
    path.join(/*turbopackIgnore: true*/ process.env.COCKPIT_ROOT ?? process.cwd(), "package.json"),
  );
  const [runtime, grammar] = await Promise.all(
    WASM_FILES.map((f) => readFile(/*turbopackIgnore: true*/ req.resolve(f))),
  );
  await initShell({ runtime: new Uint8Array(runtime!), grammar: new Uint8Array(grammar!) });
}

let ready: Promise<void> | undefined;

/**
 * Node-side loader: reads the tree-sitter runtime and bash grammar wasm files once and initialises
 * the shell parser. The only policy file that touches the file system; safe to call repeatedly.
 */
export function initShellFromNode(): Promise<void> {
  ready ??= load().catch((error) => {
    ready = undefined;
    throw error;
  });
  return ready;
}
