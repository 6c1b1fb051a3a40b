import { parseTree, type Node } from "jsonc-parser";
import {
  actionArray,
  applySplices,
  detectFormatting,
  findComma,
  lineEndOf,
  lineStartOf,
  restoreBom,
  withoutBom,
  type Splice,
} from "./json-edit";
import type { Action } from "./types";

/**
 * Append a rule to `permissions.<action>`, creating the array or object when missing, by inserting
 * text in the file's own layout: nothing outside the insertion changes (jsonc-parser's `modify`
 * re-formats sibling values, so it is not used here).
 */
export function appendJsonRule(text: string, action: Action, rule: string): string {
  const source = withoutBom(text);
  const fo = /^\s*$/.test(source)
    ? { insertSpaces: true, tabSize: 2, eol: text.includes("\r\n") ? "\r\n" : "\n" }
    : detectFormatting(source);
  const unit = fo.insertSpaces ? " ".repeat(fo.tabSize ?? 2) : "\t";
  const eol = fo.eol ?? "\n";
  const value = JSON.stringify(rule);
  if (/^\s*$/.test(source)) {
    const body = `{${eol}${unit}"permissions": {${eol}${unit}${unit}"${action}": [${eol}${unit}${unit}${unit}${value}${eol}${unit}${unit}]${eol}${unit}}${eol}}${eol}`;
    return (text.startsWith("\uFEFF") ? "\uFEFF" : "") + source.replace(/\s*$/, "") + body;
  }
  const list = actionArray(text, action);
  if (list) return restoreBom(text, applySplices(source, appendToArray(source, list, value)));
  const root = parseTree(source, [], { allowTrailingComma: true })!;
  const permissions = root.children?.find((p) => p.children?.[0]?.value === "permissions")?.children?.[1];
  const array = (indent: string, multi: boolean) =>
    multi ? `[${eol}${indent}${unit}${value}${eol}${indent}]` : `[${value}]`;
  if (permissions?.type === "object") {
    return restoreBom(text, applySplices(source, insertProperty(source, permissions, action, array, unit, eol)));
  }
  const object = (indent: string, multi: boolean) =>
    multi
      ? `{${eol}${indent}${unit}"${action}": ${array(indent + unit, true)}${eol}${indent}}`
      : `{"${action}": [${value}]}`;
  return restoreBom(text, applySplices(source, insertProperty(source, root, "permissions", object, unit, eol)));
}

/** After a trailing comment on the last item's line, unless a bracket or more data follows it there. */
function insertionPoint(source: string, afterItem: number, lineEnd: number): number {
  return /^[ \t]*(\/\/.*|\/\*.*?\*\/[ \t]*)?$/.test(source.slice(afterItem, lineEnd)) ? lineEnd : afterItem;
}

/** Whitespace at the start of the line holding `at`. */
function lineIndent(source: string, at: number): string {
  return /^[ \t]*/.exec(source.slice(lineStartOf(source, at)))![0];
}

/** Splices appending `value` to a non-empty or empty array, keeping its layout and trailing comma. */
function appendToArray(source: string, list: Node, value: string): Splice[] {
  const items = list.children ?? [];
  const open = list.offset;
  const close = list.offset + list.length - 1;
  if (!items.length) {
    const inside = source.slice(open + 1, close);
    return [/^\s*$/.test(inside) ? [open + 1, close, value] : [open + 1, open + 1, value]];
  }
  const last = items[items.length - 1];
  const lastEnd = last.offset + last.length;
  const trailingComma = findComma(source, lastEnd, close);
  const afterItem = trailingComma >= 0 ? trailingComma + 1 : lastEnd;
  const lineEnd = lineEndOf(source, afterItem);
  if (!source.slice(lastEnd, close).includes("\n"))
    return [[afterItem, afterItem, trailingComma >= 0 ? ` ${value},` : `, ${value}`]];
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  const prefix = source.slice(lineStartOf(source, last.offset), last.offset);
  const indent = prefix.trim() === "" ? prefix : lineIndent(source, last.offset);
  const at = insertionPoint(source, afterItem, lineEnd);
  const splices: Splice[] = [[at, at, `${eol}${indent}${value}${trailingComma >= 0 ? "," : ""}`]];
  if (trailingComma < 0) splices.push([lastEnd, lastEnd, ","]);
  return splices;
}

/** Splices adding `"key": value` as the last property of an object, in its layout. */
function insertProperty(
  source: string,
  object: Node,
  key: string,
  build: (indent: string, multiLine: boolean) => string,
  unit: string,
  eol: string,
): Splice[] {
  const props = object.children ?? [];
  const open = object.offset;
  const close = object.offset + object.length - 1;
  if (!props.length) {
    const indent = lineIndent(source, open) + unit;
    const text = `${eol}${indent}"${key}": ${build(indent, true)}${eol}${lineIndent(source, open)}`;
    const inside = source.slice(open + 1, close);
    return [/^\s*$/.test(inside) ? [open + 1, close, text] : [open + 1, open + 1, text]];
  }
  const last = props[props.length - 1];
  const lastEnd = last.offset + last.length;
  const trailingComma = findComma(source, lastEnd, close);
  const afterItem = trailingComma >= 0 ? trailingComma + 1 : lastEnd;
  if (!source.slice(lastEnd, close).includes("\n") && !source.slice(open, lastEnd).includes("\n")) {
    const prop = `"${key}": ${build("", false)}`;
    return [[afterItem, afterItem, trailingComma >= 0 ? ` ${prop},` : `, ${prop}`]];
  }
  const prefix = source.slice(lineStartOf(source, last.offset), last.offset);
  const indent = prefix.trim() === "" ? prefix : lineIndent(source, last.offset) + unit;
  const lineEnd = lineEndOf(source, afterItem);
  const at = insertionPoint(source, afterItem, lineEnd);
  const splices: Splice[] = [
    [at, at, `${eol}${indent}"${key}": ${build(indent, true)}${trailingComma >= 0 ? "," : ""}`],
  ];
  if (trailingComma < 0) splices.push([lastEnd, lastEnd, ","]);
  return splices;
}
