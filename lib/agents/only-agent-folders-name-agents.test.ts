/**
 * Adding an agent touches its folder, the catalogue (lib/agents/index.ts), the registry and docs only: no other source
 * file names an agent id, and an agent's folder names no other agent's id. Ids count in string literals, templates,
 * JSX text and object keys; imports and comments don't. Tests, e2e specs and benchmarks may name agents (they are data
 * there).
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { AGENT_LIST } from "./index";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["lib", "app", "components", "db", "bin", "instrumentation.ts", "proxy.ts"];
const AGENTS_DIR = "lib/agents";

/** Every agent id: the catalogue's and every agent folder's (agents being wired in count too). */
const IDS = [
  ...new Set([
    ...AGENT_LIST.map((a) => a.id as string),
    ...fs
      .readdirSync(path.join(ROOT, AGENTS_DIR), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== "shared")
      .map((e) => e.name),
  ]),
];

/** A word that is also an agent id but means something else in that file. */
const OTHER_MEANINGS: { file: string; id: string; why: string }[] = [
  { file: "lib/audit/query.ts", id: "cursor", why: "the audit list's paging cursor" },
  { file: "lib/client/api.ts", id: "cursor", why: "the audit list's paging cursor" },
];

function* sources(rel: string): Generator<string> {
  const full = path.join(ROOT, rel);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isFile()) {
    if (/\.(ts|tsx|mjs|cjs|js)$/.test(rel) && !/\.(test|pg\.test)\.tsx?$/.test(rel)) yield rel;
    return;
  }
  for (const e of fs.readdirSync(full)) if (e !== "node_modules" && e !== "migrations") yield* sources(`${rel}/${e}`);
}

/** The agent ids a file names (as words in literals, templates, JSX text or object keys). */
function named(rel: string, ids: string[]): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, rel), "utf8");
  const src = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const word = new RegExp(`(?<![\\w-])(${ids.map((i) => i.replace(/[-]/g, "\\-")).join("|")})(?![\\w-])`, "g");
  const found = new Set<string>();
  const visit = (n: ts.Node): void => {
    let t: string | null = null;
    if (ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) t = n.text;
    else if (ts.isJsxText(n)) t = n.text;
    else if (ts.isIdentifier(n) && ts.isPropertyAssignment(n.parent) && n.parent.name === n) t = n.text;
    const specifier =
      ts.isStringLiteral(n) &&
      (ts.isImportDeclaration(n.parent) || ts.isExportDeclaration(n.parent) || ts.isCallExpression(n.parent));
    if (t !== null && !(specifier && n.parent && ts.isCallExpression(n.parent) ? isImportCall(n.parent) : specifier))
      for (const m of t.matchAll(word)) found.add(m[1]!);
    ts.forEachChild(n, visit);
  };
  visit(src);
  for (const o of OTHER_MEANINGS) if (o.file === rel) found.delete(o.id);
  return found;
}

const isImportCall = (c: ts.CallExpression) => c.expression.kind === ts.SyntaxKind.ImportKeyword;

describe("only an agent's own folder names it", () => {
  it("no source outside lib/agents/<agent>/ names an agent id", () => {
    const offenders: string[] = [];
    for (const rel of SCANNED.flatMap((r) => [...sources(r)])) {
      if (rel.startsWith(`${AGENTS_DIR}/`) && IDS.some((id) => rel.startsWith(`${AGENTS_DIR}/${id}/`))) continue;
      const ids = named(rel, IDS);
      if (ids.size) offenders.push(`${rel}: ${[...ids].join(", ")}`);
    }
    expect(offenders).toEqual([]);
  });

  it("an agent's folder names no other agent", () => {
    const offenders: string[] = [];
    for (const id of IDS) {
      for (const rel of sources(`${AGENTS_DIR}/${id}`)) {
        const others = [...named(rel, IDS)].filter((n) => n !== id);
        if (others.length) offenders.push(`${rel}: ${others.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
