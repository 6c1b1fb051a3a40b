#!/usr/bin/env node
// Entry point of the `cockpit` command. Runs the bundle that scripts/build-cli.mjs made at install or start
// (plain JavaScript: no TypeScript compiled per run), or the TypeScript sources through tsx when that bundle
// is missing or older than a source it was built from (a checkout being edited). COCKPIT_CLI_SOURCE=1 forces
// the sources. `cockpit hook …`, started by agents on every tool call, has its own small bundle.
import path from "node:path";
import v8 from "node:v8";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freshBundle, HOOK_BUNDLE_AGENTS } from "../scripts/build-cli.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
// `cockpit hook <agent>` for an agent whose connector only talks to the cockpit: the small hook bundle.
const entry = argv[0] === "hook" && HOOK_BUNDLE_AGENTS.includes(argv[1]) ? "hook" : "main";
// Code that reads package files (the shell parser's wasm) finds them from here, whatever the working folder.
process.env.COCKPIT_ROOT ??= root;

// One short run parses a handful of commands: V8's baseline wasm compiler alone starts the tree-sitter grammar
// in a fraction of the CPU its optimizing tier spends (the server, a long-lived process, keeps both).
v8.setFlagsFromString("--liftoff-only");

const bundle = process.env.COCKPIT_CLI_SOURCE === "1" ? null : freshBundle(entry, root);
let main;
if (bundle) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  const source = entry === "hook" ? "lib/cli/hook-main.ts" : "lib/cli/main.ts";
  ({ main } = await import(pathToFileURL(path.join(root, source)).href));
}
process.exitCode = await main(argv);
