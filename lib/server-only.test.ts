/**
 * What runs where (docs/conventions.md "What the browser may import"): every lib module with database access is
 * marked `import "server-only"`, so a client component that reaches one fails the Next.js build; the CLI (which runs
 * outside Next.js, bundled by esbuild) reaches none of them; and client components live only in the folders the
 * browser import rules of .dependency-cruiser.cjs watch.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, reachable, ROOT, sources } from "@/test/support/source-scan";

const SERVER_ONLY = /^import "server-only";$/m;
const marked = (file: string) => SERVER_ONLY.test(fs.readFileSync(path.join(ROOT, file), "utf8"));
const touchesDatabase = (file: string) =>
  importsOf(file).some((i) => !i.typeOnly && (/^db\//.test(i.resolved ?? "") || /^drizzle-orm/.test(i.specifier)));

describe("server-only", () => {
  const lib = sources("lib");

  it("marks every lib module that imports the database or drizzle", () => {
    const withDb = lib.filter(touchesDatabase);
    expect(withDb.length).toBeGreaterThan(30);
    expect(withDb.filter((f) => !marked(f))).toEqual([]);
  });

  it("is reached by no CLI module (the CLI talks to the server over HTTP)", () => {
    const cli = reachable(sources("lib/cli"));
    expect([...cli].filter((f) => marked(f) || touchesDatabase(f)).sort()).toEqual([]);
  });
});

describe("client components", () => {
  it('("use client") live in components/, lib/client/ or lib/cards-client/, whose imports the import rules check', () => {
    const all = ["app", "components", "lib"].flatMap(sources);
    const client = all.filter((f) => /^\s*["']use client["']/.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
    expect(client.length).toBeGreaterThan(20);
    expect(client.filter((f) => !/^(components|lib\/client|lib\/cards-client)\//.test(f))).toEqual([]);
  });
});
