import type { Node } from "web-tree-sitter";
import type { ShellPart } from "../types";
import { basename, stripWrappers } from "./wrappers";

/** Mutable state of one walk over a parsed command line (payloads add to the same state). */
export interface WalkState {
  parts: ShellPart[];
  unsupported: string[];
  syntaxError: boolean;
  /** Output redirections attached to compound statements rather than one command. */
  extraWrites: string[];
  /** Input redirections (`< f`) attached to compound statements. */
  extraReads: string[];
  /** A command runs in the background (`a & b`, `a &`). */
  background: boolean;
  /** Re-parse a `bash -c`/`eval`/`find -exec` payload into this state. */
  payload: (text: string, depth: number) => void;
  depth: number;
  /** Walk budget: nodes left and a deadline, so pathological trees stop early (and count as unsupported). */
  budget: number;
  deadline: number;
}

const LISTS = new Set(["program", "list", "pipeline", "negated_command"]);
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
const WRITE_OPS = new Set([">", ">>", "&>", "&>>", ">|", ">&", "<>"]);
const MAX_DEPTH = 64;
const LARGE_TREE = 3_000; // nodes left in the budget below which the deadline applies

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/** Static value of a word node; expansions keep their source spelling and mark the word dynamic. */
export function wordValue(n: Node): { value: string; dynamic: boolean } {
  switch (n.type) {
    case "word": {
      const t = n.text;
      return { value: t.replace(/\\(.)/gs, "$1"), dynamic: /(^|[^\\])[*?[]/.test(t) || t.startsWith("~") };
    }
    case "number":
      return { value: n.text, dynamic: false };
    case "raw_string":
      return { value: n.text.slice(1, -1), dynamic: false };
    case "ansi_c_string":
      return { value: n.text.slice(2, -1).replace(/\\(.)/gs, "$1"), dynamic: false };
    case "string":
    case "translated_string": {
      const inner = n.text.replace(/^\$?"/, "").replace(/"$/, "");
      const dynamic = n.namedChildren.some((c) => c !== null && c.type !== "string_content");
      return { value: inner.replace(/\\([\\"$`])/g, "$1"), dynamic };
    }
    case "concatenation": {
      let value = "";
      let dynamic = false;
      for (const c of n.namedChildren) {
        if (!c) continue;
        const w = wordValue(c);
        value += w.value;
        dynamic ||= w.dynamic;
      }
      // Unnamed pieces (e.g. a bare "/" after an expansion) are part of the text too.
      if (n.namedChildren.length !== n.childCount) value = textConcat(n);
      return { value, dynamic };
    }
    default:
      return { value: n.text, dynamic: true };
  }
}

function textConcat(n: Node): string {
  let v = "";
  for (const c of n.children) if (c) v += c.isNamed ? wordValue(c).value : c.text;
  return v;
}

/** Walk statements under `n`, collecting simple commands as parts. */
export function walkStatement(n: Node, origin: ShellPart["origin"], st: WalkState, depth = 0): void {
  if (exhausted(st, depth)) return;
  if (origin !== "payload" && n.childCount > n.namedChildCount && n.children.some((c) => c?.type === "&"))
    st.background = true;
  switch (n.type) {
    case "comment":
      return;
    case "command":
      addCommand(n, n, origin, st, [], depth);
      return;
    case "redirected_statement": {
      const body = n.childForFieldName("body");
      const reads: string[] = [];
      const writes = redirectWrites(n, st, depth, reads);
      if (body?.type === "command") addCommand(body, n, origin, st, writes, depth, stdinTexts(n), reads);
      else {
        st.extraReads.push(...reads);
        st.extraWrites.push(...writes);
        if (body) walkStatement(body, origin, st, depth + 1);
      }
      return;
    }
    case "variable_assignment":
    case "declaration_command":
    case "unset_command":
      st.unsupported.push(n.type === "variable_assignment" ? "standalone assignment" : n.type);
      st.parts.push(part(n.text, n.text.split(/\s+/), origin, true, []));
      scanSubs(n, st, depth);
      return;
    case "test_command":
      st.parts.push(part(n.text, ["[", ...n.namedChildren.map((c) => (c ? c.text : ""))], origin, true, []));
      scanSubs(n, st, depth);
      return;
    case "ERROR":
      st.syntaxError = true;
      for (const c of n.namedChildren) if (c) walkStatement(c, origin, st, depth + 1);
      return;
    default:
      if (n.type === "list") {
        // `a && b && c` nests to the left; walk the spine iteratively so long chains are not "too deep".
        const stack: Node[] = [];
        let cur: Node | null = n;
        while (cur && cur.type === "list") {
          const kids: Node[] = cur.namedChildren.filter((c): c is Node => c !== null);
          for (let k = kids.length - 1; k >= 1; k--) stack.push(kids[k]);
          cur = kids[0] ?? null;
        }
        if (cur) stack.push(cur);
        for (let k = stack.length - 1; k >= 0; k--) walkStatement(stack[k], origin, st, depth + 1);
        return;
      }
      if (LISTS.has(n.type)) {
        if (n.type === "negated_command") st.unsupported.push("negation");
        for (const c of n.namedChildren) if (c) walkStatement(c, origin, st, depth + 1);
        return;
      }
      if (
        n.type.endsWith("_statement") ||
        n.type.endsWith("_clause") ||
        n.type === "subshell" ||
        n.type === "do_group" ||
        n.type === "function_definition" ||
        n.type === "case_item" ||
        n.type === "compound_statement"
      ) {
        st.unsupported.push(n.type);
        for (const c of n.namedChildren) if (c) walkStatement(c, origin, st, depth + 1);
        return;
      }
      scanSubs(n, st, depth);
  }
}

function exhausted(st: WalkState, depth: number): boolean {
  if (depth > MAX_DEPTH) {
    st.unsupported.push("nesting too deep");
    return true;
  }
  // Node count is the deterministic limit; the clock is consulted only for already-large trees,
  // so an ordinary command never changes its analysis under machine load.
  if (--st.budget < 0 || (st.budget < LARGE_TREE && (st.budget & 15) === 0 && performance.now() > st.deadline)) {
    st.budget = -1;
    st.unsupported.push("command too complex");
    return true;
  }
  return false;
}

function part(
  text: string,
  argv: string[],
  origin: ShellPart["origin"],
  dynamic: boolean,
  writes: string[],
  src?: string[],
): ShellPart {
  const s = stripWrappers(argv);
  return {
    text: collapse(text),
    argv,
    ...(src ? { src } : {}),
    core: s.core,
    assignments: s.assignments,
    wrappers: s.wrappers,
    writes,
    origin,
    dynamic,
  };
}

/** Output redirection targets of a statement (files written). Input targets (`< f`) go to `reads` when given. */
function redirectWrites(n: Node, st: WalkState, depth: number, reads?: string[]): string[] {
  const writes: string[] = [];
  const redirects: Node[] = [];
  for (const r of n.namedChildren) {
    if (!r || !r.type.endsWith("redirect")) continue;
    redirects.push(r);
    // `cat <<EOF > f` nests the file redirect inside the heredoc redirect.
    if (r.type === "heredoc_redirect")
      for (const c of r.namedChildren) if (c?.type === "file_redirect") redirects.push(c);
  }
  for (const r of redirects) {
    if (r.type !== "file_redirect") {
      scanSubs(r, st, depth);
      continue;
    }
    scanSubs(r, st, depth);
    const op = r.children.find((c) => c && !c.isNamed)?.text ?? "";
    const dest = r.childForFieldName("destination");
    if (!dest) continue;
    const target = wordValue(dest).value;
    if (/^(\d+|-)$/.test(target) || target === "/dev/null") continue;
    if (WRITE_OPS.has(op)) writes.push(target);
    else if (op === "<" && reads) reads.push(target);
  }
  return writes;
}

/** Here-document bodies and here-strings attached to a statement: what a shell reading stdin would run. */
function stdinTexts(n: Node): string[] {
  const out: string[] = [];
  for (const r of n.namedChildren) {
    if (r?.type === "heredoc_redirect")
      for (const c of r.namedChildren) if (c?.type === "heredoc_body") out.push(c.text);
    if (r?.type === "herestring_redirect") {
      const v = r.namedChildren.find((c) => c !== null);
      if (v) out.push(wordValue(v).value);
    }
  }
  return out;
}

function addCommand(
  cmd: Node,
  textNode: Node,
  origin: ShellPart["origin"],
  st: WalkState,
  writes: string[],
  depth: number,
  stdin: string[] = [],
  reads: string[] = [],
): void {
  const words: Node[] = [];
  for (const c of cmd.namedChildren) {
    if (!c) continue;
    if (c.type === "variable_assignment") words.push(c);
    else if (c.type === "command_name") words.push(c.namedChildren[0] ?? c);
    else if (c.type.endsWith("redirect"))
      writes.push(...redirectWrites({ namedChildren: [c] } as unknown as Node, st, depth, reads));
    else words.push(c);
  }
  let dynamic = false;
  const argv = words.map((w) => {
    if (w.type === "variable_assignment") {
      dynamic ||= w.namedChildren.some((c) => c !== null && c.type !== "variable_name" && wordValue(c).dynamic);
      return w.text;
    }
    const v = wordValue(w);
    dynamic ||= v.dynamic;
    return v.value;
  });
  scanSubs(cmd, st, depth);
  const p = part(
    textNode.text,
    argv,
    origin,
    dynamic,
    writes,
    words.map((w) => w.text),
  );
  if (reads.length) p.reads = reads;
  st.parts.push(p);
  payloadsOf(p.core, st, [...stdin, ...stdinTexts(cmd)]);
}

/** Commands hidden inside arguments: `bash -c "…"`, `eval …`, `find … -exec … ;`, a heredoc fed to a shell. */
function payloadsOf(core: string[], st: WalkState, stdin: string[] = []): void {
  if (core.length === 0 || st.depth > 8) return;
  const name = basename(core[0]);
  if (SHELLS.has(name)) {
    let script = false;
    for (let j = 1; j < core.length; j++) {
      const a = core[j];
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) && j + 1 < core.length) {
        st.payload(core[j + 1], st.depth + 1);
        return;
      }
      if (a === "-s" || /^-[A-Za-z]*s[A-Za-z]*$/.test(a)) break; // `sh -s args`: the script comes from stdin
      if (!a.startsWith("-")) {
        script = true; // `bash script.sh <<EOF`: stdin is data for the script
        break;
      }
    }
    // `bash <<'EOF' … EOF`, `sh -s <<EOF`, `bash <<< "…"`: the body is the program, like `bash -c`.
    if (!script) for (const body of stdin) st.payload(body, st.depth + 1);
  } else if (name === "eval" && core.length > 1) {
    st.payload(core.slice(1).join(" "), st.depth + 1);
  } else if (name === "find") {
    for (let j = 1; j < core.length; j++) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(core[j])) continue;
      const end = core.findIndex((a, k) => k > j && (a === ";" || a === "+"));
      const args = core.slice(j + 1, end === -1 ? undefined : end);
      if (args.length)
        st.payload(args.map((a) => (/[\s'"]/.test(a) ? `'${a.replace(/'/g, "'\\''")}'` : a)).join(" "), st.depth + 1);
    }
  }
}

/** Find `$(…)`, backticks and `<(…)` below `n` and walk the commands inside them. */
function scanSubs(n: Node, st: WalkState, depth: number): void {
  if (exhausted(st, depth)) return;
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === "command_substitution" || c.type === "process_substitution") {
      for (const s of c.namedChildren) if (s) walkStatement(s, "substitution", st, depth + 1);
    } else scanSubs(c, st, depth + 1);
  }
}
