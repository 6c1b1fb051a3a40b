import type { Datum } from "@/lib/sexp/read";

type Span = { start: number; end: number };
export type Splice = [start: number, end: number, insert: string];

export function applySplices(text: string, splices: Splice[]): string {
  let out = text;
  for (const [s, e, ins] of [...splices].sort((a, b) => b[0] - a[0])) out = out.slice(0, s) + ins + out.slice(e);
  return out;
}

const lineStartOf = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1;
function nextLineStart(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl + 1;
}
function lineEndOf(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  const end = nl < 0 ? text.length : nl;
  return text[end - 1] === "\r" ? end - 1 : end;
}
const overlapsComment = (comments: Span[], from: number, to: number) =>
  comments.some((c) => c.start < to && c.end > from);
const insideComment = (comments: Span[], at: number) => comments.some((c) => c.start <= at && at < c.end);

/**
 * Splice that removes `items[index]` from a list: its whole line when it sits alone on it (with a
 * trailing `;` comment), otherwise just the datum and the blank between it and its neighbour.
 */
export function removeItemSplice(text: string, items: Datum[], index: number, comments: Span[]): Splice {
  const el = items[index];
  const next = items[index + 1];
  const lineStart = lineStartOf(text, el.start);
  const lineEnd = lineEndOf(text, el.end);
  const prefixBlank = text.slice(lineStart, el.start).trim() === "";
  const rest = text.slice(el.end, lineEnd);
  if (prefixBlank && /^[ \t]*(;.*)?$/.test(rest)) return [lineStart, nextLineStart(text, el.end), ""];
  if (next && next.start < lineEnd) return [el.start, next.start, ""];
  if (prefixBlank) {
    // Closing parens follow on this line: join them onto the previous line unless it ends in a comment.
    let k = lineStart;
    while (k > 0 && /\s/.test(text[k - 1])) k--;
    if (k > 0 && !insideComment(comments, k - 1) && text[k - 1] !== undefined) return [k, el.end, ""];
    return [el.start, el.end, ""];
  }
  // The next item moves up into this one's place; a comment trailing this item on its line goes with it.
  if (next && !overlapsComment(comments, el.end, next.start)) return [el.start, next.start, ""];
  if (next && /^[ \t]*(;.*)?$/.test(rest) && !overlapsComment(comments, lineEnd, next.start))
    return [el.start, next.start, ""];
  let from = el.start;
  while (from > 0 && (text[from - 1] === " " || text[from - 1] === "\t")) from--;
  if (text[from - 1] === "(") {
    let to = el.end;
    while (text[to] === " " || text[to] === "\t") to++;
    return [el.start, to, ""];
  }
  return [from, el.end, ""];
}

/** Splice removing a `:key value` pair from a plist datum (both items, and the blank before the key). */
export function removePairSplice(text: string, items: Datum[], keyIndex: number): Splice {
  const key = items[keyIndex];
  const value = items[keyIndex + 1];
  const lineStart = lineStartOf(text, key.start);
  if (
    text.slice(lineStart, key.start).trim() === "" &&
    /^[ \t]*$/.test(text.slice(value.end, lineEndOf(text, value.end)))
  ) {
    return [lineStart, nextLineStart(text, value.end), ""];
  }
  let from = key.start;
  while (from > 0 && (text[from - 1] === " " || text[from - 1] === "\t")) from--;
  if (keyIndex === 0 || text[from - 1] === "(" || text[from - 1] === "\n") {
    let to = value.end;
    while (text[to] === " " || text[to] === "\t") to++;
    return [key.start, to, ""];
  }
  return [from, value.end, ""];
}

/** Splice appending `itemText` to a list (or replacing a `nil` with a one-item list), in the list's layout. */
export function appendItemSplice(text: string, list: Datum, itemText: string): Splice {
  if (list.type === "nil") return [list.start, list.end, `(${itemText})`];
  if (list.type !== "list") throw new Error("not a list");
  if (list.items.length === 0) return [list.start + 1, list.start + 1, itemText];
  const last = list.items[list.items.length - 1];
  const first = list.items[0];
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const multiLine = text.slice(first.start, last.end).includes("\n") || list.items.length === 1;
  if (!multiLine) return [last.end, last.end, ` ${itemText}`];
  const lineStart = lineStartOf(text, last.start);
  const indent = text.slice(lineStart, last.start).replace(/[^\t]/g, " ");
  // A comment trailing the last item stays on its line: insert after it.
  const lineEnd = lineEndOf(text, last.end);
  const at = /^[ \t]*;/.test(text.slice(last.end, lineEnd)) ? lineEnd : last.end;
  return [at, at, `${eol}${indent}${itemText}`];
}

/** Splice adding `:key value` to a top-level plist that lacks the key. */
export function addKeySplice(text: string, top: Datum & { type: "list" }, key: string, valueText: string): Splice {
  const close = top.end - 1;
  if (top.items.length === 0) return [close, close, `${key} ${valueText}`];
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const multiLine = text.slice(top.start, top.end).includes("\n");
  const last = top.items[top.items.length - 1];
  return [last.end, last.end, multiLine ? `${eol} ${key} ${valueText}` : ` ${key} ${valueText}`];
}
