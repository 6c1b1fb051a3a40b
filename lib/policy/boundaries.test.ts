import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// lib/policy stays pure: stores hand it parsed rules, the caller hands it the shell parser (lib/agents/shared/shell-parser.ts).
const ROOT = __dirname;
const FORBIDDEN =
  /from\s+["'](node:fs|fs|node:fs\/promises|next\/[^"']*|@\/db[^"']*|\.\.\/\.\.\/db[^"']*|node:child_process|node:net|node:http)["']/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

describe("module boundaries", () => {
  it.each(sources(ROOT).map((p) => [p.slice(ROOT.length + 1), p]))(
    "%s imports no I/O, database or Next.js",
    (_name, p) => {
      expect(readFileSync(p, "utf8")).not.toMatch(FORBIDDEN);
    },
  );
});
