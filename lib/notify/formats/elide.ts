/** Shortening for glance surfaces: head and tail with an explicit "… N more …" marker, never a silent cut. */

export type Measure = (text: string) => number;
export const chars: Measure = (s) => s.length;
export const utf8Bytes: Measure = (s) => Buffer.byteLength(s, "utf8");

function sliceToFit(text: string, budget: number, measure: Measure, fromEnd: boolean): string {
  let n = Math.min(text.length, budget);
  let part = fromEnd ? text.slice(text.length - n) : text.slice(0, n);
  while (n > 0 && measure(part) > budget) {
    n = Math.floor(n * 0.9);
    part = fromEnd ? text.slice(text.length - n) : text.slice(0, n);
  }
  return part;
}

function elideCharacters(text: string, limit: number, measure: Measure): string {
  // The marker's own length depends on the count; reserve room for the largest one.
  const reserve = measure(`\n… ${text.length} more characters …\n`);
  const budget = Math.max(0, limit - reserve);
  const head = sliceToFit(text, Math.ceil(budget * 0.65), measure, false);
  const tail = sliceToFit(text, budget - measure(head), measure, true);
  const omitted = text.length - head.length - tail.length;
  return `${head}\n… ${omitted} more characters …\n${tail}`;
}

/** Fits `text` into `limit` (characters by default, or bytes), keeping whole lines when there are several. */
export function elide(text: string, limit: number, measure: Measure = chars): string {
  if (measure(text) <= limit) return text;
  const lines = text.split("\n");
  if (lines.length > 2) {
    const reserve = measure(`… ${lines.length} more lines …`) + 2;
    const budget = limit - reserve;
    const head: string[] = [];
    const tail: string[] = [];
    let used = 0;
    let i = 0;
    let j = lines.length - 1;
    while (i <= j && used + measure(lines[i]!) + 1 <= budget * 0.65)
      ((used += measure(lines[i++]!) + 1), head.push(lines[i - 1]!));
    while (j >= i && used + measure(lines[j]!) + 1 <= budget)
      ((used += measure(lines[j--]!) + 1), tail.unshift(lines[j + 1]!));
    const omitted = j - i + 1;
    if (head.length > 0 && omitted > 0)
      return [...head, `… ${omitted} more line${omitted === 1 ? "" : "s"} …`, ...tail].join("\n");
  }
  return elideCharacters(text, limit, measure);
}
