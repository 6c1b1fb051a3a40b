/**
 * Byte-keeping JSON edits for hook files: insert one property or array element pretty-printed at its depth (jsonc's
 * own formatting would reformat the neighbours on the same line), and remove one as its mirror image.
 */
import { findNodeAtLocation, modify, parseTree, type Node } from "jsonc-parser";
import type { detectFormatting } from "@/lib/stores/json-edit";

type Fmt = ReturnType<typeof detectFormatting>;

/** jsonc-parser's raw insertion edit, with the value pretty-printed at its depth instead of reformatting neighbours. */
export function insertPretty(text: string, at: (string | number)[], value: unknown, fmt: Fmt): string {
  const [edit] = modify(text, at, value, { isArrayInsertion: typeof at.at(-1) === "number" });
  if (!edit) return text;
  const unit = fmt.insertSpaces ? " ".repeat(fmt.tabSize ?? 2) : "\t";
  const eol = fmt.eol ?? "\n";
  const depth = at.length;
  const key = typeof at.at(-1) === "string" ? `${JSON.stringify(at.at(-1))}: ` : "";
  const pretty = JSON.stringify(value, null, unit).replaceAll("\n", eol + unit.repeat(depth));
  const comma = edit.content.startsWith(",") ? "," : "";
  const rest = text.slice(edit.offset + edit.length);
  const closesRightAfter = /^[ \t]*[}\]]/.test(rest);
  const content = `${comma}${eol}${unit.repeat(depth)}${key}${pretty}${closesRightAfter && !comma ? eol + unit.repeat(depth - 1) : ""}`;
  return text.slice(0, edit.offset) + content + text.slice(edit.offset + edit.length);
}

/**
 * Removes one property or array element as the mirror image of `insertPretty`: from the end of the
 * previous sibling (taking the separator) or, for a first element, up to the next sibling.
 */
export function removeAt(text: string, at: (string | number)[]): string {
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, at);
  if (!node) return text;
  const target: Node = node.parent?.type === "property" ? node.parent : node;
  const siblings = target.parent?.children ?? [];
  const i = siblings.indexOf(target);
  const end = target.offset + target.length;
  if (i > 0) {
    const prev = siblings[i - 1]!;
    return text.slice(0, prev.offset + prev.length) + text.slice(end);
  }
  if (siblings.length > 1) return text.slice(0, target.offset) + text.slice(siblings[1]!.offset);
  // The only member: empty the container back to its brackets.
  const parent = target.parent!;
  return text.slice(0, parent.offset + 1) + text.slice(parent.offset + parent.length - 1);
}
