/**
 * Text that disguises itself: bidi controls, zero-width characters, ANSI escapes and other control
 * characters in agent-chosen text are made visible (`⟨U+202E⟩`, `⟨ESC⟩`) before a person sees them, in the
 * web app, in notifications and in CLI output. Pure; no imports, so the browser bundle can use it.
 */

/** What kind of hidden character was found; each adds one card warning. */
export type HiddenKind = "bidi control" | "invisible character" | "control character";

const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u180E\u2061-\u2064]/;
// Everything else matched by ANY: C0 controls except tab and newline, DEL, and C1 (which includes the 8-bit CSI).
const ANY =
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF\u00AD\u180E\u2061-\u2064\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

const NAMES: Record<string, string> = { "\u001b": "ESC", "\u0007": "BEL", "\u0008": "BS", "\r": "CR", "\u007f": "DEL" };

const code = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The marker shown in place of one hidden character. */
export function markerFor(ch: string): string {
  return `⟨${NAMES[ch] ?? code(ch)}⟩`;
}

function kindOf(ch: string): HiddenKind {
  if (BIDI.test(ch)) return "bidi control";
  if (INVISIBLE.test(ch)) return "invisible character";
  return "control character";
}

/** Replaces every hidden character with a visible marker. Newlines and tabs stay as they are. */
export function revealHidden(text: string): string {
  return text.replace(ANY, markerFor);
}

/** The kinds of hidden characters in the text, in a stable order; empty when there are none. */
export function hiddenKinds(text: string): HiddenKind[] {
  const found = new Set<HiddenKind>();
  for (const m of text.matchAll(ANY)) found.add(kindOf(m[0]));
  return (["bidi control", "invisible character", "control character"] as const).filter((k) => found.has(k));
}

/** Any hidden character in this text? */
export function hasHidden(text: string): boolean {
  ANY.lastIndex = 0;
  const found = ANY.test(text);
  ANY.lastIndex = 0;
  return found;
}

/**
 * A JSON-like value as a person should see it: every string (keys too) with hidden characters made visible, and
 * whether there were any (then show the "hidden characters" warning). The card, the Rules page, the Audit page,
 * the impact preview and the clean-up diff all go through this, so they reveal and warn alike.
 */
export function revealDeep<T>(value: T): { value: T; hidden: boolean } {
  let hidden = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (!hasHidden(v)) return v;
      hidden = true;
      return revealHidden(v);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(v)))
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [walk(k), walk(x)]));
    return v;
  };
  const out = walk(value) as T;
  return { value: hidden ? out : value, hidden };
}

/** Every string inside a JSON-like value (keys too), for scanning a tool input. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsIn(v, out);
    }
  return out;
}

/** Card warning for hidden characters anywhere in agent-chosen text, or null. */
export function hiddenTextWarning(values: unknown[]): string | null {
  const kinds = new Set(stringsIn(values).flatMap(hiddenKinds));
  if (kinds.size === 0) return null;
  return "hidden characters";
}

/**
 * JSON for a terminal: the same data as `JSON.stringify`, with hidden characters written as `\uXXXX`
 * escapes (JSON already escapes C0 controls; bidi and zero-width characters it would print raw).
 */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    ANY,
    (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`,
  );
}
