/** A long text shown with its head and tail visible and the middle hidden behind a "show all" control. */
export interface FoldedText {
  folded: boolean;
  head: string;
  tail: string;
  /** Lines hidden between head and tail (0 when the fold is by characters inside one long line). */
  hiddenLines: number;
  hiddenChars: number;
  totalLines: number;
}

export interface FoldOptions {
  headLines?: number;
  tailLines?: number;
  /** Text longer than this is folded by characters too, so huge lines cannot bury the buttons on a phone. */
  maxChars?: number;
}

/**
 * Folds by lines first, then by characters. Nothing is ever silently dropped: the caller always
 * learns how much is hidden and can show the whole text.
 */
export function foldText(text: string, { headLines = 5, tailLines = 3, maxChars = 800 }: FoldOptions = {}): FoldedText {
  const lines = text.split("\n");
  const totalLines = lines.length;
  if (totalLines > headLines + tailLines + 1) {
    const head = clipChars(lines.slice(0, headLines).join("\n"), maxChars / 2, "head");
    const tail = clipChars(lines.slice(totalLines - tailLines).join("\n"), maxChars / 2, "tail");
    const hiddenLines = totalLines - headLines - tailLines;
    return {
      folded: true,
      head,
      tail,
      hiddenLines,
      hiddenChars: text.length - head.length - tail.length - 2,
      totalLines,
    };
  }
  if (text.length > maxChars) {
    const half = Math.floor(maxChars / 2);
    const head = text.slice(0, half);
    const tail = text.slice(text.length - half);
    return {
      folded: true,
      head,
      tail,
      hiddenLines: 0,
      hiddenChars: text.length - head.length - tail.length,
      totalLines,
    };
  }
  return { folded: false, head: text, tail: "", hiddenLines: 0, hiddenChars: 0, totalLines };
}

/** Clips to whole lines when a line break falls in the kept half, so folds rarely cut a line in two. */
function clipChars(text: string, max: number, keep: "head" | "tail"): string {
  if (text.length <= max) return text;
  const n = Math.floor(max);
  if (keep === "head") {
    const cut = text.lastIndexOf("\n", n);
    return cut > n / 2 ? text.slice(0, cut) : text.slice(0, n);
  }
  const start = text.length - n;
  const cut = text.indexOf("\n", start);
  return cut !== -1 && cut < start + n / 2 ? text.slice(cut + 1) : text.slice(start);
}

/** "12 lines (3,400 characters) hidden", for the fold marker. */
export function describeHidden(f: FoldedText): string {
  const chars = `${f.hiddenChars.toLocaleString("en-US")} characters`;
  return f.hiddenLines > 0 ? `${f.hiddenLines} lines (${chars}) hidden` : `${chars} hidden`;
}
