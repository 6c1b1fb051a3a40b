/**
 * Cursor CLI permission tokens (`permissions.allow` / `permissions.deny` strings), parsed into data.
 * Source: https://cursor.com/docs/cli/reference/permissions ("Permission types", "Pattern matching").
 * Pure: no I/O. Parsing never throws; an unknown form is `{ ok: false }` so the entry is still listed.
 */

export type TokenKind = "Shell" | "Read" | "Write" | "WebFetch" | "Mcp";
export const TOKEN_KINDS: readonly TokenKind[] = ["Shell", "Read", "Write", "WebFetch", "Mcp"];

export type CursorToken =
  /** `Shell(commandBase)` or `Shell(commandBase:argsGlob)`: base globbed against the first token. */
  | { kind: "Shell"; base: string; args: string | null; text: string; notes: string[] }
  | { kind: "Read" | "Write"; pattern: string; text: string; notes: string[] }
  | { kind: "WebFetch"; pattern: string; text: string; notes: string[] }
  /**
   * `Mcp(server:tool)` as documented; `form: "comma"` is `Mcp(server, tool)`, the spelling third-party summaries give
   * (not the current docs): deny honours it, allow does not (it may never match in Cursor). `tool: null` = `Mcp(server)`.
   */
  | {
      kind: "Mcp";
      server: string;
      tool: string | null;
      form: "colon" | "comma" | "server";
      text: string;
      notes: string[];
    };

export type TokenParse = { ok: true; token: CursorToken } | { ok: false; error: string };

const TOKEN_RE = /^\s*([A-Za-z]+)\((.*)\)\s*$/s;

/** Parse one token string as Cursor writes it, e.g. `Shell(git)`, `Read(src/**\/*.ts)`, `Mcp(datadog:*)`. */
export function parseToken(text: string): TokenParse {
  const m = TOKEN_RE.exec(text);
  if (!m) return { ok: false, error: `not a permission token: expected Kind(value), e.g. Shell(ls)` };
  const kind = TOKEN_KINDS.find((k) => k === m[1]);
  if (!kind) {
    const near = TOKEN_KINDS.find((k) => k.toLowerCase() === m[1].toLowerCase());
    return {
      ok: false,
      error: near
        ? `unknown permission type ${m[1]}: Cursor spells it ${near} (entries are exact strings)`
        : `unknown permission type ${m[1]}: Cursor knows ${TOKEN_KINDS.join(", ")}`,
    };
  }
  const inner = m[2].trim();
  if (!inner) return { ok: false, error: `${kind}() is empty` };
  switch (kind) {
    case "Shell":
      return parseShell(inner, text);
    case "Read":
    case "Write":
      return { ok: true, token: { kind, pattern: inner, text, notes: pathNotes(inner) } };
    case "WebFetch":
      return { ok: true, token: { kind, pattern: inner.toLowerCase(), text, notes: webNotes(inner) } };
    case "Mcp":
      return parseMcp(inner, text);
  }
}

function parseShell(inner: string, text: string): TokenParse {
  const colon = inner.indexOf(":");
  const base = (colon < 0 ? inner : inner.slice(0, colon)).trim();
  const args = colon < 0 ? null : inner.slice(colon + 1).trim();
  if (!base) return { ok: false, error: "Shell(…) needs a command base before `:`, e.g. Shell(curl:*)" };
  if (args === "")
    return { ok: false, error: "Shell(base:) has an empty argument pattern; use Shell(base) or Shell(base:*)" };
  const notes: string[] = [];
  if (/\s/.test(base))
    notes.push(
      "the command base holds a space: Cursor compares it with the first token only, so allow never matches it (deny matches it as a word prefix, inferred)",
    );
  return { ok: true, token: { kind: "Shell", base, args, text, notes } };
}

function pathNotes(p: string): string[] {
  const notes: string[] = [];
  if (p === "~" || p.startsWith("~/"))
    notes.push("Cursor's docs do not say `~` expands: allow does not expand it, deny does (inferred)");
  return notes;
}

function webNotes(p: string): string[] {
  if (/[/:]/.test(p)) return ["not a domain pattern: allow never matches it, deny compares its host (inferred)"];
  if (/\*/.test(p) && p !== "*" && !/^\*\.[^*]+$/.test(p))
    return ["Cursor documents only `*` and `*.domain`: allow treats other wildcards literally"];
  return [];
}

function parseMcp(inner: string, text: string): TokenParse {
  const comma = inner.indexOf(",");
  const colon = inner.indexOf(":");
  if (colon >= 0 && (comma < 0 || colon < comma)) {
    const server = inner.slice(0, colon).trim();
    const tool = inner.slice(colon + 1).trim();
    if (!server || !tool)
      return { ok: false, error: "Mcp(server:tool) needs both a server and a tool (use * for any)" };
    return { ok: true, token: { kind: "Mcp", server, tool, form: "colon", text, notes: [] } };
  }
  if (comma >= 0) {
    const server = inner.slice(0, comma).trim();
    const tool = inner.slice(comma + 1).trim();
    if (!server || !tool) return { ok: false, error: "Mcp(server, tool) needs both a server and a tool" };
    const notes = ["Cursor's docs spell it Mcp(server:tool): allow never matches this form, deny does (inferred)"];
    return { ok: true, token: { kind: "Mcp", server, tool, form: "comma", text, notes } };
  }
  const notes = [
    "Mcp(server) without a tool is not documented: allow never matches it, deny covers the whole server (inferred)",
  ];
  return { ok: true, token: { kind: "Mcp", server: inner, tool: null, form: "server", text, notes } };
}

/** The token text for a kind and its value, as Cursor writes it. */
export function formatToken(t: CursorToken): string {
  switch (t.kind) {
    case "Shell":
      return `Shell(${t.base}${t.args === null ? "" : `:${t.args}`})`;
    case "Read":
    case "Write":
    case "WebFetch":
      return `${t.kind}(${t.pattern})`;
    case "Mcp":
      return t.tool === null ? `Mcp(${t.server})` : `Mcp(${t.server}${t.form === "comma" ? ", " : ":"}${t.tool})`;
  }
}
