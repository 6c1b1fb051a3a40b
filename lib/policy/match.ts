import type { CallFacts } from "./call";
import { ancestors, globMatcher, ruleGlob, type PathEnv } from "./paths";
import { claudeDomainMatch } from "./claude-code/domain";
import { allowView, isPrefixPattern } from "./claude-code/strip";
import { matchShellPattern } from "./shell/pattern";
import { basename } from "./shell/wrappers";
import type { Dialect, PolicyContext, Rule, ShellPart } from "./types";

/** A rule with its matcher prepared for one context (anchors resolved, globs compiled). */
export interface CompiledRule {
  rule: Rule;
  /** Aggressive for deny/ask (see-through, case folding, either path or link), conservative for allow. */
  test: (f: CallFacts, ctx: PolicyContext) => boolean;
  /** For shell rules: does one command string match (used per part by allow)? */
  testCommand?: (command: string) => boolean;
  /** Allow covers a subcommand by its stripped view (the dialect's `matching.strippedAllowView`, `coversPart`). */
  strippedView?: boolean;
  /** Leading literal words of a shell pattern (at most KEY_WORDS), for indexing; null when it starts with a wildcard. */
  word: string | null;
  /** Last fully literal segment of a path glob, for indexing; null when every segment has a wildcard. */
  dir?: string | null;
  /** Path rules: matchers of the paths carved out by Claude Code `!` rules of the same source. */
  exclude?: ((p: string) => boolean)[];
}

const KEY_WORDS = 3;

/** Index key of a shell pattern: its leading words that contain no wildcard (mevedel globs also have `?` and `[`). */
function shellKey(pattern: string, glob: boolean): string | null {
  const words = pattern.split(" ");
  const lit: string[] = [];
  for (const w of words.slice(0, KEY_WORDS)) {
    if (w.includes("*") || (glob && /[?[]/.test(w))) break;
    lit.push(w);
  }
  return lit.length ? lit.join(" ") : null;
}

interface ToolEntry {
  other: CompiledRule[];
  byWord: Map<string, CompiledRule[]>;
  byDir: Map<string, CompiledRule[]>;
}
/** Rules of one action indexed by tool name (lower case) and shell first word, plus tool-name globs. */
export interface Bucket {
  byTool: Map<string, ToolEntry>;
  globs: { re: RegExp; cr: CompiledRule }[];
  /** `mcp__server__get_*` globs keyed by `mcp__server`, so many servers do not slow every call. */
  serverGlobs: Map<string, { re: RegExp; cr: CompiledRule }[]>;
  size: number;
}
export interface CompiledSet {
  deny: Bucket;
  ask: Bucket;
  allow: Bucket;
}

const globRe = (pattern: string, flags = "i") =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
    flags,
  );

function compileOne(rule: Rule, env: PathEnv, nocase: boolean, dialect: Dialect): CompiledRule {
  const s = rule.specifier;
  const aggressive = rule.action !== "allow";
  const m = dialect.matching;
  const strippedView = m.strippedAllowView;
  if (!s) return { rule, word: null, strippedView, test: () => true };
  switch (s.kind) {
    case "shell": {
      // mevedel matches with Emacs's default case folding; folding only deny/ask keeps allow the narrower reading.
      const fold = aggressive && m.foldDenyCase;
      const testCommand = (c: string) => matchShellPattern(s.pattern, s.dialect, c, fold);
      return {
        rule,
        word: fold ? null : shellKey(s.pattern, s.dialect === "glob"),
        testCommand,
        strippedView,
        test: (f) => {
          if (f.kind === "eval") return f.command !== null && testCommand(f.command);
          if (!f.shell) return false;
          if (aggressive) return shellViews(f).some(testCommand);
          const parts = allowParts(f.shell.parts, f.shell.allowable);
          if (!parts) return false;
          // Claude Code: the pattern against the stripped view. The assignment and exec-wrapper limits apply where
          // decisions are made (`coversPart`); here the question is what the pattern itself reaches (tool-wide).
          return strippedView
            ? parts.every((p) => testCommand(allowView(p).text) || testCommand(p.text))
            : parts.every((p) => testCommand(p.text));
        },
      };
    }
    case "path": {
      const glob = ruleGlob(s.pattern, dialect, rule.source, env, !aggressive);
      // Compiled on first use: with the index most rules are never tested, and picomatch dominates build time.
      let compiledGlob: ((p: string) => boolean) | null = null;
      // Claude Code: "A deny or ask rule whose path isn't usable as a gitignore pattern still guards that exact path."
      const literal = m.literalDenyPaths && aggressive ? glob : undefined;
      const globMatch = (p: string) => (compiledGlob ??= globMatcher(glob, nocase && aggressive, literal))(p);
      // Claude Code `!` carve-outs of the same source (attached by compileRules).
      const exclude: ((p: string) => boolean)[] = [];
      const match = (p: string) => globMatch(p) && !exclude.some((x) => x(p));
      // Every fully literal segment of a glob must appear in a matching path: index by the last one.
      const lits = glob.split("/").filter((x) => x && !/[*?[\]{}()!+@\\]/.test(x));
      const last = lits.length ? lits[lits.length - 1] : null;
      const dir = last && nocase && aggressive ? last.toLowerCase() : last;
      return {
        rule,
        word: null,
        strippedView,
        dir,
        exclude,
        test: (f, ctx) => {
          if (f.paths.length === 0) return false;
          if (aggressive) {
            return f.paths.some((p) => {
              const link = ctx.resolveSymlink?.(p) ?? null;
              const all = link ? [p, link] : [p];
              return all.some((q) => match(q) || ancestors(q).some(match));
            });
          }
          return f.paths.every((p) => {
            const link = ctx.resolveSymlink?.(p) ?? null;
            return match(p) && (link === null || match(link));
          });
        },
      };
    }
    case "domain": {
      const pat = s.pattern;
      let re: RegExp | null = null;
      if (m.domains === "documented")
        return { rule, word: null, strippedView, test: (f) => f.host !== null && claudeDomainMatch(pat, f.host) };
      return {
        rule,
        word: null,
        strippedView,
        test: (f) =>
          f.host !== null && (pat.startsWith("*.") ? f.host.endsWith(pat.slice(1)) : (re ??= globRe(pat)).test(f.host)),
      };
    }
    case "param": {
      const re = globRe(s.value, "s");
      return {
        rule,
        word: null,
        strippedView,
        test: (f) => {
          const v = (f.call.input ?? {})[s.name];
          if (v === undefined || v === null || typeof v === "object") return false;
          return re.test(String(v));
        },
      };
    }
    case "name": {
      const re = globRe(s.pattern);
      return { rule, word: null, strippedView, test: (f) => f.name !== null && re.test(f.name) };
    }
    case "expression":
      return { rule, word: null, strippedView, test: (f) => f.command === s.value };
  }
}

/**
 * Claude Code: does an allow pattern cover one subcommand? It sees the command after the documented wrappers and
 * safe assignments are stripped; "An allow rule won't match past an assignment of any other variable"; exec wrappers
 * (`watch`, `setsid`, `ionice`, `flock`, `find -exec`/`-delete`) "can't be auto-approved by a prefix rule".
 */
export function claudeAllowPart(pattern: string | null, testCommand: (c: string) => boolean, p: ShellPart): boolean {
  const v = allowView(p);
  if (v.blocked || !v.text) return false;
  if (v.execWrapper) return pattern !== null && !isPrefixPattern(pattern) && testCommand(v.text);
  return pattern === null || testCommand(v.text);
}

/** Parts an allow rule must cover: the line's own commands and substitutions (never a stripped payload). Null when not allowable. */
export function allowParts(parts: ShellPart[], allowable: boolean): ShellPart[] | null {
  if (!allowable) return null;
  return parts.filter((p) => p.origin !== "payload");
}

const viewCache = new WeakMap<CallFacts, string[]>();

/** Every spelling deny/ask consult: raw line, each part, parts without env/wrappers, basename of the program. */
export function shellViews(f: CallFacts): string[] {
  let v = viewCache.get(f);
  if (v) return v;
  const set = new Set<string>();
  if (f.command) set.add(f.command.trim().replace(/\s+/g, " "));
  for (const p of f.shell?.parts ?? []) {
    set.add(p.text);
    if (p.argv.length) set.add(p.argv.join(" "));
    if (p.core.length) {
      set.add(p.core.join(" "));
      set.add([basename(p.core[0]), ...p.core.slice(1)].join(" "));
    }
  }
  v = [...set];
  viewCache.set(f, v);
  return v;
}

function emptyBucket(): Bucket {
  return { byTool: new Map(), globs: [], serverGlobs: new Map(), size: 0 };
}

function add(b: Bucket, key: string, cr: CompiledRule): void {
  let e = b.byTool.get(key);
  if (!e) b.byTool.set(key, (e = { other: [], byWord: new Map(), byDir: new Map() }));
  const push = (m: Map<string, CompiledRule[]>, k: string) => {
    const list = m.get(k);
    if (list) list.push(cr);
    else m.set(k, [cr]);
  };
  if (cr.word) push(e.byWord, cr.word);
  else if (cr.dir) push(e.byDir, cr.dir);
  else e.other.push(cr);
  b.size++;
}

/**
 * Rules the agent parses but does not enforce (shown by the cockpit, ignored by decisions): path rules of the
 * dialect's `unconsulted` tools (Claude Code accepts Write(path), NotebookEdit(path), Glob(path) and MultiEdit(path)
 * but never consults them).
 */
export function ignoredByAgent(rule: Rule, dialect: Dialect): boolean {
  return rule.specifier?.kind === "path" && dialect.rules.unconsulted.includes(rule.tool.toLowerCase());
}

const compiled = new WeakMap<readonly Rule[], { key: string; dialect: Dialect; set: CompiledSet }>();

/** Index rules by action and tool for one context; cached per rules array and context anchors. */
export function compileRules(rules: readonly Rule[], ctx: PolicyContext): CompiledSet {
  const env: PathEnv = { workspaceRoot: ctx.workspaceRoot, cwd: ctx.cwd ?? ctx.workspaceRoot, home: ctx.home };
  // Array identity plus length: a store that appends to its array in place still gets a fresh index.
  const dialect = ctx.dialect;
  const key = `${env.workspaceRoot}\0${env.cwd}\0${env.home}\0${ctx.caseInsensitiveFs ? 1 : 0}\0${rules.length}`;
  const hit = compiled.get(rules);
  if (hit && hit.key === key && hit.dialect === dialect) return hit.set;
  const set: CompiledSet = { deny: emptyBucket(), ask: emptyBucket(), allow: emptyBucket() };
  const earlier: CompiledRule[] = [];
  for (const rule of rules) {
    if (ignoredByAgent(rule, dialect)) continue;
    if (carveOut(rule, earlier, env, !!ctx.caseInsensitiveFs, dialect)) continue;
    const cr = compileOne(rule, env, !!ctx.caseInsensitiveFs, dialect);
    if (dialect.matching.negatedPaths && rule.specifier?.kind === "path") earlier.push(cr);
    const b = set[rule.action];
    if (!b) continue;
    const tool = rule.tool.toLowerCase();
    const segs = tool.split("__");
    if (tool.includes("*") && segs[0] === "mcp" && segs.length >= 3 && !segs[1].includes("*")) {
      const k = `mcp__${segs[1]}`;
      const list = b.serverGlobs.get(k);
      if (list) list.push({ re: globRe(tool), cr });
      else b.serverGlobs.set(k, [{ re: globRe(tool), cr }]);
      b.size++;
    } else if (tool.includes("*")) b.globs.push({ re: globRe(tool), cr });
    else add(b, tool, cr);
    if (dialect.matching.readEditLinked && rule.specifier?.kind === "path") {
      // Claude Code: "A `Read` deny rule also blocks the Edit and Write tools on the same path, including creating a new file
      // there. NotebookEdit isn't covered" (permissions#read-and-edit); ask rules likewise (stricter).
      if (tool === "read" && rule.action !== "allow")
        add(b, "edit", { ...cr, test: (f, c) => f.exact !== "notebookedit" && cr.test(f, c) });
      // "An `Edit(...)` allow rule also grants read access to the same path" (tools-reference).
      if (tool === "edit" && rule.action === "allow") add(b, "read", cr);
    }
  }
  compiled.set(rules, { key, dialect, set });
  return set;
}

/**
 * Claude Code `!` patterns (permissions#read-and-edit): "A deny or ask pattern that starts with `!` is a gitignore
 * negation. It carves the paths it matches out of the `path` or `./path` rules listed before it" of the same
 * source and list; "Claude Code reads a `!` pattern relative to the current directory even when `/`, `~/`, or `//`
 * follows"; "A `!` rule listed first carves nothing out". The `!` rule itself never matches. True when `rule` was one.
 */
function carveOut(rule: Rule, earlier: CompiledRule[], env: PathEnv, nocase: boolean, dialect: Dialect): boolean {
  const s = rule.specifier;
  if (!dialect.matching.negatedPaths || rule.action === "allow" || s?.kind !== "path" || !s.pattern.startsWith("!"))
    return false;
  const neg = s.pattern.slice(1).replace(/^\.\//, "").replace(/^\/+/, "");
  if (!neg) return true;
  // Anchored at the current directory, any depth only for a bare name (the narrower reading: carves out less).
  const glob = ruleGlob(neg.startsWith("~") ? `./${neg}` : neg, dialect, rule.source, env, true);
  let m: ((p: string) => boolean) | null = null;
  const excluded = (p: string) => (m ??= globMatcher(glob, nocase))(p);
  for (const cr of earlier) {
    const o = cr.rule;
    const pat = o.specifier?.kind === "path" ? o.specifier.pattern : "";
    const relative = !pat.startsWith("/") && !pat.startsWith("~") && !pat.startsWith("!");
    if (relative && o.action === rule.action && o.source.store === rule.source.store && o.tool === rule.tool)
      cr.exclude?.push(excluded);
  }
  return true;
}

/** Rules of a bucket that could apply to the call (by tool name, MCP server, shell leading words, path directories). */
export function candidates(b: Bucket, f: CallFacts, ctx?: PolicyContext): CompiledRule[] {
  if (b.size === 0 && b.globs.length === 0) return [];
  let server: string | null = null;
  const out: CompiledRule[] = [];
  const words = f.shell ? firstWords(f) : null;
  const dirs = f.paths.length ? dirKeys(f, ctx) : null;
  const keys = [...f.names];
  if (f.kind === "mcp") {
    const segs = f.exact.split("__");
    if (segs.length >= 2) keys.push((server = `${segs[0]}__${segs[1]}`));
  }
  for (const k of keys) {
    const e = b.byTool.get(k);
    if (!e) continue;
    out.push(...e.other);
    if (dirs && e.byDir.size)
      for (const d of dirs) {
        const l = e.byDir.get(d);
        if (l) out.push(...l);
      }
    if (e.byWord.size) {
      if (words)
        for (const w of words) {
          const l = e.byWord.get(w);
          if (l) out.push(...l);
        }
      else if (f.kind === "eval") for (const l of e.byWord.values()) out.push(...l);
    }
  }
  for (const g of b.globs) if (g.re.test(f.exact)) out.push(g.cr);
  if (server) for (const g of b.serverGlobs.get(server) ?? []) if (g.re.test(f.exact)) out.push(g.cr);
  return out;
}

const wordCache = new WeakMap<CallFacts, Set<string>>();
/** Leading 1..KEY_WORDS words of every view: the keys a shell rule can be indexed under. */
function firstWords(f: CallFacts): Set<string> {
  let w = wordCache.get(f);
  if (w) return w;
  w = new Set();
  for (const v of shellViews(f)) {
    const words = v.split(" ", KEY_WORDS);
    for (let k = 1; k <= words.length; k++) w.add(words.slice(0, k).join(" "));
  }
  wordCache.set(f, w);
  return w;
}

const dirCache = new WeakMap<CallFacts, Set<string>>();
/** Every segment of the call's paths and their symlink targets, as written and lower-cased. */
function dirKeys(f: CallFacts, ctx?: PolicyContext): Set<string> {
  let d = dirCache.get(f);
  if (d) return d;
  d = new Set();
  const all = [...f.paths];
  for (const p of f.paths) {
    const l = ctx?.resolveSymlink?.(p);
    if (l) all.push(l);
  }
  for (const p of all)
    for (const seg of p.split("/"))
      if (seg) {
        d.add(seg);
        d.add(seg.toLowerCase());
      }
  dirCache.set(f, d);
  return d;
}

/** First rule of the bucket matching the call, or null. */
export function firstMatch(b: Bucket, f: CallFacts, ctx: PolicyContext): CompiledRule | null {
  for (const cr of candidates(b, f, ctx)) if (cr.test(f, ctx)) return cr;
  return null;
}
