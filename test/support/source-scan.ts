/**
 * Reads the project's sources for the structure tests (lib/verb-inventory.test.ts, lib/server-only.test.ts): files,
 * their imports (value or type-only, `@/` resolved) and their functions, parsed with the TypeScript parser only (no
 * type-checking, so a scan of every file takes about a second).
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every .ts/.tsx source under `dir` (relative to the root), tests and declaration files left out. */
export function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && e.name !== "testdata") walk(child);
      } else if (/\.tsx?$/.test(e.name) && !/\.(test|pg\.test)\.tsx?$|\.d\.ts$/.test(e.name)) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

const parsed = new Map<string, ts.SourceFile>();
export function parse(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
    parsed.set(file, sf);
  }
  return sf;
}

export interface Import {
  /** As written: `@/db/client`, `./events`, `drizzle-orm`. */
  specifier: string;
  /** The project file it names (relative to the root), or null for a package. */
  resolved: string | null;
  typeOnly: boolean;
}

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  return null;
}

/** The file's imports and re-exports; `import { type A, type B }` counts as type-only. */
export function importsOf(file: string): Import[] {
  const out: Import[] = [];
  for (const st of parse(file).statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : null;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      const specifier = st.moduleSpecifier.text;
      out.push({ specifier, resolved: resolve(file, specifier), typeOnly });
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const specifier = st.moduleSpecifier.text;
      out.push({ specifier, resolved: resolve(file, specifier), typeOnly: st.isTypeOnly });
    }
  }
  return out;
}

/** Files reachable from `entries` through value imports (what runs when they run). */
export function reachable(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of importsOf(file))
      if (!i.typeOnly && i.resolved && /\.tsx?$/.test(i.resolved)) stack.push(i.resolved);
  }
  return seen;
}

export interface FunctionInfo {
  file: string;
  name: string;
  exported: boolean;
  node: ts.FunctionLikeDeclaration;
}

/** Named functions: declarations and `const f = (…) => …` / `function` expressions, top level. */
export function functionsOf(file: string): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  for (const st of parse(file).statements) {
    const exported =
      !!ts.canHaveModifiers(st) && !!ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isFunctionDeclaration(st) && st.name && st.body) out.push({ file, name: st.name.text, exported, node: st });
    else if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations)
        if (
          ts.isIdentifier(d.name) &&
          d.initializer &&
          (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
        )
          out.push({ file, name: d.name.text, exported, node: d.initializer });
  }
  return out;
}

/** Names of the functions a function's body calls (`f(…)`, `x.f(…)` counts as `f`). */
export function callsOf(fn: ts.FunctionLikeDeclaration): Set<string> {
  const names = new Set<string>();
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      if (ts.isIdentifier(callee)) names.add(callee.text);
      else if (ts.isPropertyAccessExpression(callee)) names.add(callee.name.text);
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return names;
}
