import { createHash } from "node:crypto";
import { TOOL_NAME } from "@/lib/policy/tools";
import { revealHidden } from "@/lib/text/reveal";
import { printDatum, readPlist, readSexps, SexpError, type Datum } from "@/lib/sexp/read";
import type { AuditLogEntry, AuditLogReader } from "../types";

/**
 * mevedel's `permission-log.el` (`mevedel-permission-log`): one `prin1` plist per entry, appended in UTF-8,
 *   (:event permission-decision :time "2026-05-01T10:00:00+0200" :tool-name "Bash" :origin "/root" :mode ask
 *    :outcome allow :via rule :specifier-key :pattern :specifier-value "npm test" :bucket persistent)
 * Strings are not newline-escaped, so an entry may span lines. Read with the restricted reader in its
 * `printed` mode (dotted pairs such as `(deny . "REASON")`, vectors, propertized strings) — never evaluated.
 * Values become JSON: strings and numbers as they are, symbols and keywords as their names, nil as null, t as
 * true, nested plists as objects, other lists and vectors as arrays, a dotted pair `(deny . "why")` as
 * `{"deny": "why"}` (any other dotted list as `{"items": […], "tail": …}`).
 */
export type MevedelLogEntry = AuditLogEntry;

export interface MalformedEntry {
  line: number;
  reason: string;
}

/** Sets an own property, even one named `__proto__` (a log is data written by another program). */
function own(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function plain(d: Datum): unknown {
  switch (d.type) {
    case "string":
    case "number":
      return d.value;
    case "symbol":
    case "keyword":
      return d.name;
    case "nil":
      return null;
    case "t":
      return true;
    case "list": {
      const items = d.items;
      if (d.dotted) {
        const head = items[0];
        if (items.length === 1 && (head.type === "symbol" || head.type === "keyword"))
          return { [head.name]: plain(d.dotted) };
        return { items: items.map(plain), tail: plain(d.dotted) };
      }
      if (d.vector) return items.map(plain);
      // A nested plist becomes an object, any other list an array.
      if (items.length && items.length % 2 === 0 && items.every((x, i) => i % 2 || x.type === "keyword")) {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < items.length; i += 2)
          own(o, (items[i] as { name: string }).name.slice(1), plain(items[i + 1]!));
        return o;
      }
      return items.map(plain);
    }
  }
}

/** Parentheses still open at the end of `text`, outside strings and comments (a negative result means too many `)`). */
function depthDelta(text: string, state: { inString: boolean }): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (state.inString) {
      if (c === "\\") i++;
      else if (c === '"') state.inString = false;
      continue;
    }
    if (c === '"') state.inString = true;
    else if (c === ";") break;
    else if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
  }
  return depth;
}

/**
 * Splits the log into entries line by line (streaming: feed lines, get entries). An entry starts at a
 * line whose first character is `(` and ends when its parentheses balance; a new entry starting while
 * one is still open marks the open one malformed, so one broken line never swallows the rest.
 */
export class MevedelLogReader implements AuditLogReader {
  private buf: string[] = [];
  private start = 0;
  private depth = 0;
  private state = { inString: false };
  private lineNo = 0;
  private seen = new Map<string, number>();
  readonly malformed: MalformedEntry[] = [];

  constructor(private readonly salt = "") {}

  /** Feeds one line (without its newline); returns the entry it completes, if any. */
  push(line: string): MevedelLogEntry | null {
    this.lineNo++;
    if (!this.buf.length) {
      const trimmed = line.trim();
      if (!trimmed || trimmed.startsWith(";")) return null;
      if (!trimmed.startsWith("(")) {
        this.malformed.push({ line: this.lineNo, reason: "not a plist: an entry starts with '('" });
        return null;
      }
    } else if (line.startsWith("(") && !this.state.inString) {
      this.fail("unbalanced '(' — the entry never closes");
    }
    if (!this.buf.length) {
      this.start = this.lineNo;
      this.depth = 0;
      this.state = { inString: false };
    }
    this.buf.push(line);
    this.depth += depthDelta(line, this.state);
    if (this.depth > 0 || this.state.inString) return null;
    const text = this.buf.join("\n");
    const at = this.start;
    this.buf = [];
    return this.parse(text, at);
  }

  /** Call at the end of input: an entry still open is malformed. */
  end(): void {
    if (this.buf.length) this.fail("unbalanced '(' — the file ends inside an entry");
  }

  private fail(reason: string) {
    this.malformed.push({ line: this.start, reason });
    this.buf = [];
  }

  private parse(text: string, line: number): MevedelLogEntry | null {
    try {
      const { data } = readSexps(text, { printed: true });
      if (data.length !== 1) throw new Error(data.length ? "more than one datum on the entry's lines" : "empty entry");
      const datum = data[0]!;
      if (datum.type === "list" && (datum.dotted || datum.vector)) throw new Error("an entry is a plist");
      const map = readPlist(text, datum, "entry");
      const fields: Record<string, unknown> = {};
      for (const [k, { value }] of map) own(fields, k.slice(1), plain(value));
      for (const key of ["tool", "tool-name"]) {
        const tool = fields[key];
        if (tool !== undefined && (typeof tool !== "string" || !TOOL_NAME.test(tool)))
          throw new Error(`:${key} ${revealHidden(JSON.stringify(tool)).slice(0, 80)} is not a tool name`);
      }
      const canonical = printDatum(datum);
      const n = (this.seen.get(canonical) ?? 0) + 1;
      this.seen.set(canonical, n);
      const key = createHash("sha256").update(`mevedel-permission-log\n${this.salt}\n${n}\n${canonical}`).digest("hex");
      return { line, key, fields };
    } catch (error) {
      const reason =
        error instanceof SexpError ? error.reason : error instanceof Error ? error.message : "unreadable entry";
      this.malformed.push({ line, reason });
      return null;
    }
  }
}

/** Reads a whole log held in memory (tests, small files); the CLI streams lines instead. */
export function readMevedelLog(text: string, salt = ""): { entries: MevedelLogEntry[]; malformed: MalformedEntry[] } {
  const reader = new MevedelLogReader(salt);
  const entries: MevedelLogEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const e = reader.push(line);
    if (e) entries.push(e);
  }
  reader.end();
  return { entries, malformed: reader.malformed };
}
