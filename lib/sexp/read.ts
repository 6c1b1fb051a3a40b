/**
 * A restricted Emacs Lisp reader for permission plists. It reads data only: strings, numbers,
 * symbols, keywords, `nil`, `t`, lists and `;` comments; every reader macro that could evaluate
 * or build other objects (`#…`, `?c`, quote, backquote, comma, vectors, dotted pairs) is refused.
 * With `{ printed: true }` (what `prin1` writes into a log) it also reads dotted pairs `(deny . "why")`,
 * vectors `[a b]` and propertized strings `#("text" 0 4 (face bold))` (kept as their text) — still as data only.
 * Offsets are UTF-16 indices into the decoded text, so edits can splice the original string.
 */

interface Span {
  start: number;
  end: number;
}
export type Datum =
  | (Span & { type: "list"; items: Datum[]; dotted?: Datum; vector?: boolean })
  | (Span & { type: "string"; value: string })
  | (Span & { type: "symbol"; name: string })
  | (Span & { type: "keyword"; name: string })
  | (Span & { type: "number"; value: number })
  | (Span & { type: "nil" })
  | (Span & { type: "t" });

export interface ReadResult {
  data: Datum[];
  comments: Span[];
}

export const MAX_DEPTH = 512;

export class SexpError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = "SexpError";
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const DELIMITERS = new Set([" ", "\t", "\n", "\r", "\f", "\v", "(", ")", "[", "]", '"', ";", "'", "`", ","]);
const NUMBER = /^[+-]?(?:\d+\.?|\d*\.\d+(?:e[+-]?\d+)?|\d+(?:\.\d*)?e[+-]?\d+)$/i;

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  f: "\f",
  b: "\b",
  a: "\x07",
  e: "\x1b",
  s: " ",
  d: "\x7f",
  v: "\v",
};

export interface ReadOptions {
  /** Accept what `prin1` prints besides plists: dotted pairs, vectors and propertized strings (never evaluated). */
  printed?: boolean;
}

/** Read every top-level datum of `text`. Throws SexpError with line and column. */
export function readSexps(text: string, opts: ReadOptions = {}): ReadResult {
  const fail = (reason: string, at: number): never => {
    const { line, column } = lineColumn(text, at);
    throw new SexpError(reason, at, line, column);
  };
  const top: Datum[] = [];
  const comments: Span[] = [];
  type Open = {
    start: number;
    items: Datum[];
    close: ")" | "]";
    dotAt?: number;
    dotted?: Datum;
    propertized?: boolean;
  };
  const stack: Open[] = [];
  const push = (d: Datum) => {
    const open = stack[stack.length - 1];
    if (!open) return void top.push(d);
    if (open.dotAt !== undefined) {
      if (open.dotted) fail("more than one datum after '.'", d.start);
      open.dotted = d;
    } else open.items.push(d);
  };
  const printed = opts.printed === true;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (
      c === " " ||
      c === "\t" ||
      c === "\n" ||
      c === "\r" ||
      c === "\f" ||
      c === "\v" ||
      (c === "\uFEFF" && i === 0)
    ) {
      i++;
    } else if (c === ";") {
      const start = i;
      while (i < n && text[i] !== "\n") i++;
      comments.push({ start, end: i });
    } else if (c === "(" || (printed && c === "[") || (printed && c === "#" && text[i + 1] === "(")) {
      if (stack.length >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`, i);
      const propertized = c === "#";
      stack.push({ start: i, items: [], close: c === "[" ? "]" : ")", propertized });
      i += propertized ? 2 : 1;
    } else if (c === ")" || (printed && c === "]")) {
      const open = stack.pop();
      if (!open) fail(`unexpected '${c}'`, i);
      if (open!.close !== c) fail(`'${c}' closes a '${open!.close === ")" ? "(" : "["}'`, i);
      if (open!.dotAt !== undefined && !open!.dotted) fail("nothing after '.'", open!.dotAt);
      i++;
      if (open!.propertized) {
        // `#("text" START END PROPS …)`: the text is the datum; its properties are display data.
        const str = open!.items[0];
        if (str?.type !== "string") fail("a propertized string starts with its text", open!.start);
        push({ ...(str as Extract<Datum, { type: "string" }>), start: open!.start, end: i });
      } else
        push({
          type: "list",
          items: open!.items,
          start: open!.start,
          end: i,
          ...(open!.dotted ? { dotted: open!.dotted } : {}),
          ...(open!.close === "]" ? { vector: true } : {}),
        });
    } else if (c === '"') {
      const start = i;
      i++;
      let value = "";
      for (;;) {
        if (i >= n) fail("unterminated string", start);
        const ch = text[i];
        if (ch === '"') {
          i++;
          break;
        }
        if (ch !== "\\") {
          value += ch;
          i++;
          continue;
        }
        const esc = text[i + 1];
        if (esc === undefined) fail("unterminated string", start);
        const escAt = i;
        i += 2;
        if (esc === "\n" || esc === " ") continue; // line continuation / escaped space in strings
        if (esc in SIMPLE_ESCAPES) value += SIMPLE_ESCAPES[esc];
        else if (esc === "x") {
          const m = /^[0-9a-fA-F]+/.exec(text.slice(i, i + 8));
          if (!m) fail("bad \\x escape", escAt);
          value += String.fromCodePoint(parseInt(m![0], 16));
          i += m![0].length;
          if (text[i] === "\\" && text[i + 1] === " ") i += 2;
        } else if (esc === "u" || esc === "U") {
          const len = esc === "u" ? 4 : 8;
          const hex = text.slice(i, i + len);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) fail(`bad \\${esc} escape`, escAt);
          const cp = parseInt(hex, 16);
          if (cp > 0x10ffff) fail("code point out of range", escAt);
          value += String.fromCodePoint(cp);
          i += len;
        } else if (esc === "N") {
          const m = /^\{U\+([0-9a-fA-F]{1,6})\}/.exec(text.slice(i, i + 10));
          if (!m) fail("only \\N{U+XXXX} escapes are supported", escAt);
          const cp = parseInt(m![1], 16);
          if (cp > 0x10ffff) fail("code point out of range", escAt);
          value += String.fromCodePoint(cp);
          i += m![0].length;
        } else if (esc >= "0" && esc <= "7") {
          const m = /^[0-7]{1,3}/.exec(text.slice(i - 1, i + 2))!;
          value += String.fromCodePoint(parseInt(m[0], 8));
          i += m[0].length - 1;
        } else if (esc === "C" || esc === "M" || esc === "S" || esc === "H" || esc === "A" || esc === "^") {
          fail(`modifier escape \\${esc} is not supported`, escAt);
        } else value += esc;
      }
      push({ type: "string", value, start, end: i });
    } else if (c === "#") {
      fail(`'#${text[i + 1] ?? ""}' reader syntax is not allowed`, i);
    } else if (c === "?") {
      fail("character literals (?c) are not allowed", i);
    } else if (c === "'" || c === "`" || c === ",") {
      fail(`'${c}' quote/backquote/comma forms are not allowed`, i);
    } else if (c === "[" || c === "]") {
      fail("vectors are not allowed", i);
    } else {
      const start = i;
      let name = "";
      while (i < n && !DELIMITERS.has(text[i])) {
        if (text[i] === "\\") {
          if (i + 1 >= n) fail("escape at end of input", i);
          name += text[i + 1];
          i += 2;
        } else name += text[i++];
      }
      const raw = text.slice(start, i);
      if (raw === ".") {
        const open = stack[stack.length - 1];
        if (!printed || !open || open.close !== ")" || open.propertized) fail("dotted pairs are not allowed", start);
        if (open!.dotAt !== undefined || open!.items.length === 0) fail("misplaced '.'", start);
        open!.dotAt = start;
        continue;
      }
      if (raw === name && NUMBER.test(raw))
        push({ type: "number", value: Number(raw.endsWith(".") ? raw.slice(0, -1) : raw), start, end: i });
      else if (raw === "nil") push({ type: "nil", start, end: i });
      else if (raw === "t") push({ type: "t", start, end: i });
      else if (name.startsWith(":") && raw === name) push({ type: "keyword", name, start, end: i });
      else push({ type: "symbol", name, start, end: i });
    }
  }
  if (stack.length) fail("unbalanced '(' — missing ')'", stack[stack.length - 1].start);
  return { data: top, comments };
}

const STRING_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\" };

/** Print a string as an Elisp string literal (only `"` and `\` need escaping; newlines stay literal). */
export function printString(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => STRING_ESCAPES[c])}"`;
}

/** Canonical one-line text of a datum (comments and layout dropped). Iterative: safe on deep input. */
export function printDatum(datum: Datum): string {
  const out: string[] = [];
  const work: (Datum | string)[] = [datum];
  while (work.length) {
    const d = work.pop()!;
    if (typeof d === "string") {
      out.push(d);
      continue;
    }
    switch (d.type) {
      case "list":
        work.push(d.vector ? "]" : ")");
        if (d.dotted) work.push(d.dotted, " . ");
        for (let k = d.items.length - 1; k >= 0; k--) {
          work.push(d.items[k]);
          if (k > 0) work.push(" ");
        }
        out.push(d.vector ? "[" : "(");
        break;
      case "string":
        out.push(printString(d.value));
        break;
      case "symbol":
        out.push(d.name.replace(/[\s()[\]";'`,\\#?]/g, (ch) => `\\${ch}`));
        break;
      case "keyword":
        out.push(d.name);
        break;
      case "number":
        out.push(String(d.value));
        break;
      case "nil":
        out.push("nil");
        break;
      case "t":
        out.push("t");
        break;
    }
  }
  return out.join("");
}

/** A plist as ordered [keyword, value] pairs; rejects odd length, non-keyword keys and duplicates. */
export function readPlist(text: string, list: Datum, what: string): Map<string, { key: Datum; value: Datum }> {
  if (list.type !== "list" && list.type !== "nil") throw datumError(text, list, `${what} must be a plist`);
  const items = list.type === "list" ? list.items : [];
  if (items.length % 2 !== 0) throw datumError(text, list, `${what} has an odd number of elements`);
  const map = new Map<string, { key: Datum; value: Datum }>();
  for (let k = 0; k < items.length; k += 2) {
    const key = items[k];
    if (key.type !== "keyword")
      throw datumError(text, key, `${what}: expected a :keyword, found ${printDatum(key).slice(0, 40)}`);
    if (map.has(key.name)) throw datumError(text, key, `${what}: duplicate key ${key.name}`);
    map.set(key.name, { key, value: items[k + 1] });
  }
  return map;
}

export function datumError(text: string, datum: Span, reason: string): SexpError {
  const { line, column } = lineColumn(text, datum.start);
  return new SexpError(reason, datum.start, line, column);
}
