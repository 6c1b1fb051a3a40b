/**
 * Byte-preserving insertions and removals in JSON/JSONC text (pure). jsonc-parser's `modify` re-prints the
 * neighbouring values, so edits here splice only the new text (in the file's own indentation) and, on removal,
 * exactly what an insertion added: comments and every other byte stay put.
 */
import { parseTree, type Node } from "jsonc-parser";

export interface Layout {
  unit: string;
  eol: string;
}

/** Indentation unit and line ending the text already uses (two spaces and \n for an empty text). */
export function layoutOf(text: string): Layout {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]);
  if (indents.some((i) => i.startsWith("\t"))) return { unit: "\t", eol };
  const sizes = indents.map((i) => i.length).filter((n) => n > 0);
  return { unit: " ".repeat(sizes.length ? Math.min(...sizes) : 2), eol };
}

export const treeOf = (text: string) => parseTree(text, [], { allowTrailingComma: true });

const lineStart = (t: string, at: number) => t.lastIndexOf("\n", at - 1) + 1;
const lineEnd = (t: string, at: number) => {
  const nl = t.indexOf("\n", at);
  const end = nl < 0 ? t.length : nl;
  return t[end - 1] === "\r" ? end - 1 : end;
};
const indentAt = (t: string, at: number) => /^[ \t]*/.exec(t.slice(lineStart(t, at)))![0];
/** Only whitespace and comments between `from` and the end of its line. */
const restIsBlank = (t: string, from: number) =>
  /^[ \t]*(\/\/.*|\/\*.*?\*\/[ \t]*)?$/.test(t.slice(from, lineEnd(t, from)));
const startsLine = (t: string, at: number) => t.slice(lineStart(t, at), at).trim() === "";

/** Offset of the comma between `from` and `to`, skipping whitespace and comments; -1 if none. */
function commaBetween(t: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    if (t[i] === ",") return i;
    if (t.startsWith("//", i)) i = lineEnd(t, i);
    else if (t.startsWith("/*", i)) {
      const close = t.indexOf("*/", i + 2);
      i = close < 0 ? to : close + 2;
    } else if (/\s/.test(t[i])) i++;
    else return -1;
  }
  return -1;
}

function pretty(value: unknown, indent: string, l: Layout): string {
  return JSON.stringify(value, null, l.unit)
    .split("\n")
    .join(l.eol + indent);
}

/**
 * Append `item` (already rendered by `render(indent)`) as the last member of a container node (object or array):
 * on its own line after the last member (and any comment on that line), or inline when the container is on one line.
 */
function appendMember(
  t: string,
  container: Node,
  render: (indent: string, inline: boolean) => string,
  l: Layout,
): string {
  const members = container.children ?? [];
  const open = container.offset;
  const close = container.offset + container.length - 1;
  if (!members.length) {
    const outer = indentAt(t, open);
    const inner = outer + l.unit;
    return t.slice(0, open + 1) + `${l.eol}${inner}${render(inner, false)}${l.eol}${outer}` + t.slice(close);
  }
  const last = members[members.length - 1]!;
  const lastEnd = last.offset + last.length;
  const comma = commaBetween(t, lastEnd, close);
  const after = comma >= 0 ? comma + 1 : lastEnd;
  const multiLine = t.slice(lastEnd, close).includes("\n") && startsLine(t, last.offset);
  if (!multiLine) {
    const piece = render("", true);
    return t.slice(0, after) + (comma >= 0 ? ` ${piece},` : `, ${piece}`) + t.slice(after);
  }
  const indent = indentAt(t, last.offset);
  const at = restIsBlank(t, after) ? lineEnd(t, after) : after;
  const inserted = `${l.eol}${indent}${render(indent, false)}${comma >= 0 ? "," : ""}`;
  const withItem = t.slice(0, at) + inserted + t.slice(at);
  return comma >= 0 ? withItem : withItem.slice(0, lastEnd) + "," + withItem.slice(lastEnd);
}

export function appendArrayItem(t: string, array: Node, value: unknown, l: Layout): string {
  return appendMember(t, array, (indent, inline) => (inline ? JSON.stringify(value) : pretty(value, indent, l)), l);
}

export function appendProperty(t: string, object: Node, key: string, value: unknown, l: Layout): string {
  return appendMember(
    t,
    object,
    (indent, inline) => `${JSON.stringify(key)}: ${inline ? JSON.stringify(value) : pretty(value, indent, l)}`,
    l,
  );
}

/**
 * Remove one member (a property node or an array element): the mirror image of `appendMember`, so an append then a
 * remove gives back the original bytes. A member on its own lines takes its line break and separator with it.
 */
export function removeMember(t: string, member: Node): string {
  const container = member.parent!;
  const siblings = container.children ?? [];
  const i = siblings.indexOf(member);
  const end = member.offset + member.length;
  const close = container.offset + container.length - 1;
  if (siblings.length === 1) {
    const inner = t.slice(container.offset + 1, close);
    // Only the member (our own insertion into an empty container): back to the bare brackets; else keep the comments.
    if (inner.trim() === t.slice(member.offset, end)) return t.slice(0, container.offset + 1) + t.slice(close);
    const ownComma = commaBetween(t, end, close);
    return t.slice(0, member.offset) + t.slice(ownComma >= 0 ? ownComma + 1 : end);
  }
  if (i === siblings.length - 1) {
    const prev = siblings[i - 1]!;
    const prevEnd = prev.offset + prev.length;
    const comma = commaBetween(t, prevEnd, member.offset);
    const ownComma = commaBetween(t, end, close);
    const stop = ownComma >= 0 ? ownComma + 1 : end;
    if (startsLine(t, member.offset) && comma >= 0) {
      const from = lineStart(t, member.offset) - (t[lineStart(t, member.offset) - 2] === "\r" ? 2 : 1);
      const cut = t.slice(0, from) + t.slice(stop);
      return ownComma >= 0 ? cut : cut.slice(0, comma) + cut.slice(comma + 1);
    }
    return t.slice(0, prevEnd) + t.slice(stop);
  }
  const next = siblings[i + 1]!;
  if (startsLine(t, member.offset) && startsLine(t, next.offset))
    return t.slice(0, lineStart(t, member.offset)) + t.slice(lineStart(t, next.offset));
  return t.slice(0, member.offset) + t.slice(next.offset);
}

/** The property node (key + value) named `key` of an object node. */
export function propertyNode(object: Node | undefined, key: string): Node | undefined {
  return object?.type === "object" ? object.children?.find((p) => p.children?.[0]?.value === key) : undefined;
}
