import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The cockpit's own folder (where package.json and node_modules are): the first folder above this module
 * holding a package.json. Works from the TypeScript sources (lib/cli/) and from the bundle (dist/cli/).
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}
