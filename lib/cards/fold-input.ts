/**
 * A bounded preview of a card's tool input for lists: long strings keep their head and say how much
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
}

export interface FoldedInput {
  input: Record<string, unknown>;
  /** Characters (string contents) and items left out; 0 when the preview is the whole input. */
  omitted: number;
}

const marker = (n: number, what: string) => `… (${n} more ${what})`;

export function foldInput(
  input: Record<string, unknown>,
  { maxString = 2_000, budget = 6_000, maxItems = 50, maxDepth = 8 }: FoldInputOptions = {},
): FoldedInput {
  let left = budget;
  let omitted = 0;
  const size = (v: unknown): number => {
    const text = JSON.stringify(v);
    return text === undefined ? 0 : text.length;
  };
  const fold = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") {
      const keep = Math.max(0, Math.min(value.length, maxString, left));
      left -= keep;
      if (keep === value.length) return value;
      omitted += value.length - keep;
      return value.slice(0, keep) + marker(value.length - keep, "characters");
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
    for (const [k, v] of entries.slice(0, maxItems)) out[k.slice(0, 200)] = fold(v, depth + 1);
    if (entries.length > maxItems) {
      omitted += entries.length - maxItems;
      out["…"] = marker(entries.length - maxItems, "keys");
    }
    return out;
  };
  const folded = fold(input, 0) as Record<string, unknown>;
  return { input: folded, omitted };
}
