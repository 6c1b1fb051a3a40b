import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { initShell } from "./shell/analyze";

/** Node-side loader: reads the tree-sitter runtime and bash grammar wasm files and initialises the shell parser. The only policy file that touches the file system. */
export async function initShellFromNode(): Promise<void> {
  const require = createRequire(import.meta.url);
  const [runtime, grammar] = await Promise.all([
    readFile(require.resolve("web-tree-sitter/web-tree-sitter.wasm")),
    readFile(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")),
  ]);
  await initShell({ runtime: new Uint8Array(runtime), grammar: new Uint8Array(grammar) });
}
