/**
 * A bounded preview of a card's tool input for lists: long strings keep their head and tail and say how much
 * is hidden, long arrays/objects keep their first items, and a total budget caps the whole preview.
 * The full input stays one request away (GET /api/v1/cards/:id).
 */
export interface FoldInputOptions {
  /** Characters kept of any one string. */
  maxString?: number;
  /** Characters kept over all strings of the input. */
  budget?: number;
  /** Items kept per array and keys per object. */
  maxItems?: number;
  /** Nesting kept; deeper values become a marker. */
  maxDepth?: number;
  /**
   * Top-level string fields the engine judges as a whole (a shell command): kept up to this many characters,
   * outside the budget, so the person sees the whole command in the list. 16 KiB is the longest command the
   * engine parses at all.
   */
  wholeFields?: readonly string[];
  maxWhole?: number;
}

export interface FoldedInput {
  input: Record<string, unknown>;
  /** Characters (string contents) and items left out; 0 when the preview is the whole input. */
  omitted: number;
}

const marker = (n: number, what: string) => `… (${n} more ${what})`;

export function foldInput(
  input: Record<string, unknown>,
  {
    maxString = 2_000,
    budget = 6_000,
    maxItems = 50,
    maxDepth = 8,
    wholeFields = ["command"],
    maxWhole = 16_384,
  }: FoldInputOptions = {},
): FoldedInput {
  let left = budget;
  let omitted = 0;
  const size = (v: unknown): number => {
    const text = JSON.stringify(v);
    return text === undefined ? 0 : text.length;
  };
  const fold = (value: unknown, depth: number, whole = false): unknown => {
    if (typeof value === "string") {
      const keep = whole ? Math.min(value.length, maxWhole) : Math.max(0, Math.min(value.length, maxString, left));
      if (!whole) left -= keep;
      if (keep === value.length) return value;
      omitted += value.length - keep;
      // Head and tail: what a long command does last (`… && curl … | sh`) must stay visible in the list.
      const tail = Math.floor(keep / 3);
      const head = keep - tail;
      return value.slice(0, head) + marker(value.length - keep, "characters") + (tail ? value.slice(-tail) : "");
    }
    if (value === null || typeof value !== "object") return value;
    if (depth >= maxDepth) {
      omitted += size(value);
      return marker(size(value), "characters of nested input");
    }
    if (Array.isArray(value)) {
      const kept = value.slice(0, maxItems).map((v) => fold(v, depth + 1));
      if (value.length > maxItems) {
        omitted += value.length - maxItems;
        kept.push(marker(value.length - maxItems, "items"));
      }
      return kept;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries.slice(0, maxItems))
      out[k.slice(0, 200)] = fold(v, depth + 1, depth === 0 && wholeFields.includes(k));
    if (entries.length > maxItems) {
      omitted += entries.length - maxItems;
      out["…"] = marker(entries.length - maxItems, "keys");
    }
    return out;
  };
  const folded = fold(input, 0) as Record<string, unknown>;
  return { input: folded, omitted };
}
