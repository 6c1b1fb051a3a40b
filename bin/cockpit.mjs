#!/usr/bin/env node
// Entry point of the `cockpit` command: loads the TypeScript CLI through tsx.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import(path.join(root, "lib/cli/main.ts"));
const code = await main(process.argv.slice(2));
process.exitCode = code;
