/**
 * Reader for Codex `.rules` files (a Starlark subset) on the tree-sitter-python grammar. It never evaluates:
 * a file of literal `prefix_rule` / `host_executable` / `network_rule` calls (and comments) is read exactly;
 * a file that needs evaluation (`def`, loops, variables, …) is "opaque" (listed read-only, its literal calls
 * still read); a file Codex itself would reject is "broken" with the line, because Codex then empties its whole
 * policy (core/src/exec_policy.rs load_exec_policy_with_warning). Argument checks follow execpolicy/src/parser.rs.
 */
import type { Node, Parser } from "web-tree-sitter";
import { normalizeAbsolute, basename } from "./paths";
import { shlexSplit } from "./shlex";
import type {
  CodexDecision,
  CodexLayer,
  HostExecutable,
  NetworkRule,
  PatternToken,
  PrefixRule,
  RuleSource,
} from "./types";

export type FileStatus =
  | { kind: "ok" }
  /** Codex fails to load this file, so it ignores every rules file (the whole policy is empty). */
  | { kind: "broken"; line: number; message: string }
  /** The file needs evaluation the cockpit does not do: listed read-only; its effect is not fully known. */
  | { kind: "opaque"; line: number; reason: string };

/** A `match`/`not_match` check Codex runs after loading the file (parser.rs validate_pending_examples_from). */
export interface ExampleCheck {
  rules: PrefixRule[];
  match: string[][];
  notMatch: string[][];
  line: number;
}

/** One literal call statement, with the text ranges an editor needs. */
export interface RuleCall {
  fn: "prefix_rule" | "host_executable" | "network_rule";
  source: RuleSource;
  /** Value ranges of keyword or positional arguments by parameter name. */
  args: Record<string, { start: number; end: number; keyword: boolean }>;
  /** The rules this call produced (prefix_rule: one per first-position alternative). */
  prefixRules: PrefixRule[];
}

export interface RulesFile {
  path: string;
  layer: CodexLayer;
  text: string;
  status: FileStatus;
  calls: RuleCall[];
  prefixRules: PrefixRule[];
  hostExecutables: HostExecutable[];
  networkRules: NetworkRule[];
  examples: ExampleCheck[];
}

type Value = string | Value[] | Opaque;
class Opaque {
  constructor(readonly reason: string) {}
}
class Broken extends Error {
  constructor(
    message: string,
    readonly node: Node,
  ) {
    super(message);
  }
}

const PARAMS = {
  prefix_rule: ["pattern", "decision", "match", "not_match", "justification"],
  host_executable: ["name", "paths"],
  network_rule: ["host", "protocol", "decision", "justification"],
} as const;
const REQUIRED: Record<keyof typeof PARAMS, readonly string[]> = {
  prefix_rule: ["pattern"],
  host_executable: ["name", "paths"],
  network_rule: ["host", "protocol", "decision"],
};
/** Names Codex's evaluator rejects outright (verified with `codex execpolicy check`: "Variable `print` not found"). */
const FAILING_CALLS: Record<string, string> = {
  load: "load() is not available in Codex rules (no imports)",
  print: "Variable `print` not found",
};

/** Parse one `.rules` file. `python` is a web-tree-sitter parser set to tree-sitter-python. */
export function parseRulesFile(path: string, text: string, layer: CodexLayer, python: Parser): RulesFile {
  const file: RulesFile = {
    path,
    layer,
    text,
    status: { kind: "ok" },
    calls: [],
    prefixRules: [],
    hostExecutables: [],
    networkRules: [],
    examples: [],
  };
  const tree = python.parse(text);
  if (!tree) {
    file.status = { kind: "broken", line: 1, message: "the file could not be parsed" };
    return file;
  }
  try {
    const root = tree.rootNode;
    if (root.hasError) {
      const bad = firstError(root);
      file.status = { kind: "broken", line: (bad?.startPosition.row ?? 0) + 1, message: "syntax error" };
      return file;
    }
    for (const stmt of root.children) {
      if (!stmt) continue;
      if (stmt.type === "comment" || stmt.type === ";") continue;
      const call = stmt.type === "expression_statement" && stmt.namedChildCount === 1 ? stmt.namedChild(0) : null;
      if (!call || call.type !== "call" || call.childForFieldName("function")?.type !== "identifier") {
        markOpaque(file, stmt, `uses ${describe(stmt)}, which the cockpit does not evaluate`);
        continue;
      }
      const name = call.childForFieldName("function")!.text;
      if (name in FAILING_CALLS) {
        file.status = { kind: "broken", line: stmt.startPosition.row + 1, message: FAILING_CALLS[name]! };
        return file;
      }
      if (!(name in PARAMS)) {
        markOpaque(file, stmt, `calls ${name}(), which the cockpit does not evaluate`);
        continue;
      }
      try {
        readCall(file, stmt, call, name as keyof typeof PARAMS);
      } catch (e) {
        if (e instanceof Broken) {
          file.status = { kind: "broken", line: e.node.startPosition.row + 1, message: e.message };
          return file;
        }
        if (e instanceof Opaque) {
          markOpaque(file, stmt, e.reason);
          continue;
        }
        throw e;
      }
    }
    return file;
  } finally {
    tree.delete();
  }
}

function markOpaque(file: RulesFile, node: Node, reason: string) {
  if (file.status.kind === "ok") file.status = { kind: "opaque", line: node.startPosition.row + 1, reason };
}

function describe(node: Node): string {
  const kinds: Record<string, string> = {
    function_definition: "def",
    for_statement: "a for loop",
    while_statement: "a while loop",
    if_statement: "if",
    expression_statement: "an expression or assignment",
    import_statement: "import",
    import_from_statement: "import",
  };
  return kinds[node.type] ?? node.type.replace(/_/g, " ");
}

function firstError(node: Node): Node | null {
  if (node.isError || node.isMissing) return node;
  for (const c of node.children) {
    if (c && (c.hasError || c.isError || c.isMissing)) return firstError(c) ?? c;
  }
  return null;
}

function statementEnd(stmt: Node): number {
  const next = stmt.nextSibling;
  return next && next.type === ";" ? next.endIndex : stmt.endIndex;
}

function readCall(file: RulesFile, stmt: Node, call: Node, fn: keyof typeof PARAMS) {
  const source: RuleSource = {
    file: file.path,
    line: stmt.startPosition.row + 1,
    endLine: stmt.endPosition.row + 1,
    start: stmt.startIndex,
    end: statementEnd(stmt),
    layer: file.layer,
  };
  const params = PARAMS[fn];
  const values = new Map<string, { value: Value; node: Node }>();
  const args: RuleCall["args"] = {};
  let positional = 0;
  const argList = call.childForFieldName("arguments");
  if (!argList || argList.type !== "argument_list") throw new Opaque(`${fn}() has an unusual argument form`);
  for (const arg of argList.namedChildren) {
    if (!arg || arg.type === "comment") continue;
    let name: string;
    let valueNode: Node;
    if (arg.type === "keyword_argument") {
      name = arg.childForFieldName("name")!.text;
      valueNode = arg.childForFieldName("value")!;
      if (!(params as readonly string[]).includes(name))
        throw new Broken(`${fn}() got an unexpected named argument ${name}`, arg);
      if (values.has(name)) throw new Broken("repeated named argument", arg);
    } else if (arg.type === "list_splat" || arg.type === "dictionary_splat") {
      throw new Opaque(`${fn}() uses * or ** arguments`);
    } else {
      if (positional >= params.length) throw new Broken(`${fn}() got too many positional arguments`, arg);
      name = params[positional++]!;
      valueNode = arg;
    }
    values.set(name, { value: literal(valueNode), node: valueNode });
    args[name] = { start: valueNode.startIndex, end: valueNode.endIndex, keyword: arg.type === "keyword_argument" };
  }
  for (const req of REQUIRED[fn])
    if (!values.has(req)) throw new Broken(`${fn}() is missing the argument ${req}`, call);
  for (const { value } of values.values()) assertKnown(value);

  const record: RuleCall = { fn, source, args, prefixRules: [] };
  if (fn === "prefix_rule") readPrefixRule(file, record, values);
  else if (fn === "host_executable") readHostExecutable(file, source, values);
  else readNetworkRule(file, source, values);
  file.calls.push(record);
}

function assertKnown(v: Value): void {
  if (v instanceof Opaque) throw v;
  if (Array.isArray(v)) v.forEach(assertKnown);
}

type Args = Map<string, { value: Value; node: Node }>;

function str(args: Args, name: string, what: string): string | undefined {
  const a = args.get(name);
  if (!a) return undefined;
  if (typeof a.value !== "string") throw new Broken(`${what} must be a string`, a.node);
  return a.value;
}

function parseDecision(raw: string, node: Node): CodexDecision {
  if (raw === "allow" || raw === "prompt" || raw === "forbidden") return raw;
  throw new Broken(`invalid decision: ${raw}`, node);
}

function justificationOf(args: Args): string | undefined {
  const j = str(args, "justification", "justification");
  if (j !== undefined && j.trim() === "")
    throw new Broken("justification cannot be empty", args.get("justification")!.node);
  return j;
}

function readPrefixRule(file: RulesFile, record: RuleCall, args: Args) {
  const decisionRaw = str(args, "decision", "decision");
  const decision = decisionRaw === undefined ? "allow" : parseDecision(decisionRaw, args.get("decision")!.node);
  const justification = justificationOf(args);
  const p = args.get("pattern")!;
  if (!Array.isArray(p.value)) throw new Broken("pattern must be a list", p.node);
  const pattern: PatternToken[] = p.value.map((tok) => {
    if (typeof tok === "string") return tok;
    if (Array.isArray(tok)) {
      if (!tok.every((t): t is string => typeof t === "string"))
        throw new Broken("pattern alternative must be a string", p.node);
      if (tok.length === 0) throw new Broken("pattern alternatives cannot be empty", p.node);
      return tok.length === 1 ? tok[0]! : tok;
    }
    throw new Broken("pattern element must be a string or list of strings", p.node);
  });
  if (pattern.length === 0) throw new Broken("pattern cannot be empty", p.node);
  const match = examples(args, "match");
  const notMatch = examples(args, "not_match");
  const [head, ...rest] = pattern;
  const heads = typeof head === "string" ? [head] : head!;
  const rules: PrefixRule[] = heads.map((first) => ({
    kind: "prefix",
    first,
    rest,
    decision,
    ...(justification !== undefined ? { justification } : {}),
    pattern,
    source: record.source,
  }));
  record.prefixRules = rules;
  file.prefixRules.push(...rules);
  if (match.length || notMatch.length) file.examples.push({ rules, match, notMatch, line: record.source.line });
}

function examples(args: Args, name: string): string[][] {
  const a = args.get(name);
  if (!a) return [];
  if (!Array.isArray(a.value)) throw new Broken(`${name} must be a list`, a.node);
  return a.value.map((ex) => {
    if (typeof ex === "string") {
      const words = shlexSplit(ex);
      if (!words) throw new Broken("example string has invalid shell syntax", a.node);
      if (words.length === 0) throw new Broken("example cannot be an empty string", a.node);
      return words;
    }
    if (Array.isArray(ex)) {
      if (!ex.every((t): t is string => typeof t === "string"))
        throw new Broken("example tokens must be strings", a.node);
      if (ex.length === 0) throw new Broken("example cannot be an empty list", a.node);
      return ex;
    }
    throw new Broken("example must be a string or list of strings", a.node);
  });
}

function readHostExecutable(file: RulesFile, source: RuleSource, args: Args) {
  const name = str(args, "name", "host_executable name")!;
  const nameNode = args.get("name")!.node;
  if (name === "") throw new Broken("host_executable name cannot be empty", nameNode);
  if (name.includes("/") || name === "." || name === "..")
    throw new Broken(`host_executable name must be a bare executable name (got ${name})`, nameNode);
  const p = args.get("paths")!;
  if (!Array.isArray(p.value)) throw new Broken("host_executable paths must be a list", p.node);
  const paths: string[] = [];
  for (const raw of p.value) {
    if (typeof raw !== "string") throw new Broken("host_executable paths must be strings", p.node);
    if (!raw.startsWith("/")) throw new Broken(`host_executable paths must be absolute (got ${raw})`, p.node);
    const norm = normalizeAbsolute(raw);
    if (basename(norm) !== name)
      throw new Broken(`host_executable path \`${raw}\` must have basename \`${name}\``, p.node);
    if (!paths.includes(norm)) paths.push(norm);
  }
  file.hostExecutables.push({ name, paths, source });
}

const PROTOCOLS: Record<string, NetworkRule["protocol"]> = {
  http: "http",
  https: "https",
  https_connect: "https",
  "http-connect": "https",
  socks5_tcp: "socks5_tcp",
  socks5_udp: "socks5_udp",
};

function readNetworkRule(file: RulesFile, source: RuleSource, args: Args) {
  const hostRaw = str(args, "host", "host")!;
  const protocolRaw = str(args, "protocol", "protocol")!;
  const decisionRaw = str(args, "decision", "decision")!;
  const protocol = PROTOCOLS[protocolRaw];
  if (!protocol)
    throw new Broken(
      `network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got ${protocolRaw})`,
      args.get("protocol")!.node,
    );
  const decision = decisionRaw === "deny" ? "forbidden" : parseDecision(decisionRaw, args.get("decision")!.node);
  const justification = justificationOf(args);
  const host = normalizeNetworkHost(hostRaw);
  if (typeof host !== "string") throw new Broken(host.error, args.get("host")!.node);
  file.networkRules.push({
    host,
    protocol,
    decision,
    ...(justification !== undefined ? { justification } : {}),
    source,
  });
}

/** execpolicy/src/rule.rs normalize_network_rule_host. */
export function normalizeNetworkHost(raw: string): string | { error: string } {
  let host = raw.trim();
  if (!host) return { error: "network_rule host cannot be empty" };
  if (/:\/\/|[/?#]/.test(host))
    return { error: "network_rule host must be a hostname or IP literal (without scheme or path)" };
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    if (close < 0) return { error: "network_rule host has an invalid bracketed IPv6 literal" };
    const rest = host.slice(close + 1);
    if (rest && !/^:\d+$/.test(rest)) return { error: `network_rule host contains an unsupported suffix: ${raw}` };
    host = host.slice(1, close);
  } else if ((host.match(/:/g) ?? []).length === 1) {
    const idx = host.lastIndexOf(":");
    const cand = host.slice(0, idx);
    const port = host.slice(idx + 1);
    if (cand && /^\d+$/.test(port)) host = cand;
  }
  const normalized = host.replace(/\.+$/, "").trim().toLowerCase();
  if (!normalized) return { error: "network_rule host cannot be empty" };
  if (normalized.includes("*"))
    return { error: "network_rule host must be a specific host; wildcards are not allowed" };
  if (/\s/.test(normalized)) return { error: "network_rule host cannot contain whitespace" };
  return normalized;
}

/** Literal value of an expression node: strings and (nested) lists; anything else is Opaque. */
function literal(node: Node): Value {
  if (node.type === "string") return stringValue(node);
  if (node.type === "list") {
    return node.namedChildren.filter((c): c is Node => !!c && c.type !== "comment").map(literal);
  }
  if (node.type === "concatenated_string") throw new Broken("adjacent string literals are not allowed", node);
  return new Opaque(`uses ${node.type.replace(/_/g, " ")} (${node.text.slice(0, 40)}) as a value`);
}

function stringValue(node: Node): Value {
  const startTok = node.child(0);
  const endTok = node.child(node.childCount - 1);
  if (!startTok || !endTok || startTok.type !== "string_start") return new Opaque("an unusual string");
  const prefix = startTok.text.replace(/["']+$/, "").toLowerCase();
  if (prefix !== "" && prefix !== "r") return new Opaque(`a ${prefix}-string`);
  if (node.namedChildren.some((c) => c?.type === "interpolation")) return new Opaque("an f-string");
  const body = node.text.slice(startTok.endIndex - node.startIndex, endTok.startIndex - node.startIndex);
  if (prefix === "r") return body;
  return decodeEscapes(body) ?? new Opaque(`an escape sequence in ${node.text.slice(0, 40)}`);
}

const SIMPLE: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "\n": "",
};

/** Starlark string escapes; `undefined` for an escape the cockpit is not sure Codex reads the same way. */
function decodeEscapes(body: string): string | undefined {
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    if (e in SIMPLE) out += SIMPLE[e];
    else if (e === "x" && /^[0-7][0-9a-fA-F]$/.test(body.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (
      (e === "u" || e === "U") &&
      new RegExp(`^[0-9a-fA-F]{${e === "u" ? 4 : 8}}$`).test(body.slice(i + 1, i + 1 + (e === "u" ? 4 : 8)))
    ) {
      const len = e === "u" ? 4 : 8;
      const cp = parseInt(body.slice(i + 1, i + 1 + len), 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
      out += String.fromCodePoint(cp);
      i += len;
    } else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(m, 8));
      i += m.length - 1;
    } else return undefined;
  }
  return out;
}
