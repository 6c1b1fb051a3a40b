import { parseTree, type FormattingOptions, type Node } from "jsonc-parser";
import { StoreChangedError } from "@/lib/errors";
import type { Action } from "./types";

/** Indentation and line ending as the file already uses them. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]);
  if (indents.some((i) => i.startsWith("\t"))) return { insertSpaces: false, tabSize: 1, eol };
  const sizes = indents.map((i) => i.length).filter((n) => n > 0);
  const tabSize = sizes.length ? Math.min(...sizes) : 2;
  return { insertSpaces: true, tabSize, eol };
}

export const withoutBom = (text: string) => (text.startsWith("\uFEFF") ? " " + text.slice(1) : text);
export const restoreBom = (original: string, edited: string) =>
  original.startsWith("\uFEFF") ? "\uFEFF" + edited.slice(1) : edited;

export function actionArray(text: string, action: Action): Node | undefined {
  const root = parseTree(withoutBom(text), [], { allowTrailingComma: true });
  const permissions = root?.children?.find((p) => p.children?.[0]?.value === "permissions")?.children?.[1];
  const list = permissions?.children?.find((p) => p.children?.[0]?.value === action)?.children?.[1];
  return list?.type === "array" ? list : undefined;
}

function itemAt(text: string, action: Action, index: number, expected: string): { list: Node; item: Node } {
  const list = actionArray(text, action);
  const item = list?.children?.[index];
  if (!list || !item || item.value !== expected) throw new StoreChangedError();
  return { list, item };
}

/** Index of the comma between `from` and `to`, skipping whitespace and comments; -1 if none. */
export function findComma(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text[i];
    if (c === ",") return i;
    if (c === "/" && text[i + 1] === "/") {
      while (i < to && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? to : close + 2;
    } else if (/\s/.test(c)) i++;
    else return -1;
  }
  return -1;
}

export const lineStartOf = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1;
function nextLineStart(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl + 1;
}
export function lineEndOf(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  const end = nl < 0 ? text.length : nl;
  return text[end - 1] === "\r" ? end - 1 : end;
}

export type Splice = [start: number, end: number, insert: string];
export function applySplices(text: string, splices: Splice[]): string {
  let out = text;
  for (const [s, e, ins] of [...splices].sort((a, b) => b[0] - a[0])) out = out.slice(0, s) + ins + out.slice(e);
  return out;
}

/**
 * Remove `permissions.<action>[index]` by splicing only the item, its comma and — when it sat
 * alone on its line — that line (with a trailing comment on it).
 */
export function removeJsonRule(text: string, action: Action, index: number, expected: string): string {
  const source = withoutBom(text);
  const { list, item } = itemAt(text, action, index, expected);
  const items = list.children!;
  const start = item.offset;
  const end = item.offset + item.length;
  const next = items[index + 1];
  const prev = items[index - 1];
  const listClose = list.offset + list.length - 1;
  const ownComma = findComma(source, end, next ? next.offset : listClose);
  const lineStart = lineStartOf(source, start);
  const prefixBlank = source.slice(lineStart, start).trim() === "";
  const splices: Splice[] = [];
  const restAfter = (from: number) => source.slice(from, lineEndOf(source, from));
  const blankOrComment = (s: string) => /^[ \t]*(\/\/.*|\/\*.*?\*\/[ \t]*)?$/.test(s);

  if (ownComma >= 0) {
    const sameLine = ownComma < lineEndOf(source, end);
    if (prefixBlank && sameLine && blankOrComment(restAfter(ownComma + 1)))
      splices.push([lineStart, nextLineStart(source, end), ""]);
    else {
      let stop = ownComma + 1;
      while (source[stop] === " " || source[stop] === "\t") stop++;
      splices.push([start, sameLine ? stop : ownComma + 1, ""]);
    }
  } else if (prev) {
    const prevComma = findComma(source, prev.offset + prev.length, start);
    if (prevComma < 0) throw new StoreChangedError("cannot locate the separator before this entry — refresh");
    if (prefixBlank && blankOrComment(restAfter(end))) splices.push([lineStart, nextLineStart(source, end), ""]);
    else {
      let from = start;
      while (from > prevComma + 1 && (source[from - 1] === " " || source[from - 1] === "\t")) from--;
      splices.push([from, end, ""]);
    }
    splices.push([prevComma, prevComma + 1, ""]);
  } else if (prefixBlank && blankOrComment(restAfter(end))) splices.push([lineStart, nextLineStart(source, end), ""]);
  else splices.push([start, end, ""]);
  return restoreBom(text, applySplices(source, splices));
}

/** Replace the string `permissions.<action>[index]` in place. */
export function replaceJsonRule(
  text: string,
  action: Action,
  index: number,
  expected: string,
  replacement: string,
): string {
  const { item } = itemAt(text, action, index, expected);
  return text.slice(0, item.offset) + JSON.stringify(replacement) + text.slice(item.offset + item.length);
}
