/**
 * POSIX-style word splitting and joining as the Rust `shlex` crate does it (1.3): Codex splits string
 * `match`/`not_match` examples with it (execpolicy/src/parser.rs parse_string_example) and joins argv with it
 * for the hook `command` string (core/src/tools/handlers/shell.rs shlex_join).
 */

/** Split like `shlex::split`: `undefined` on an unterminated quote or a trailing backslash. */
export function shlexSplit(input: string): string[] | undefined {
  const words: string[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i]!;
    if (c === " " || c === "\t" || c === "\n") {
      i++;
      continue;
    }
    if (c === "#") {
      while (i < n && input[i] !== "\n") i++;
      continue;
    }
    let word = "";
    while (i < n) {
      const ch = input[i]!;
      if (ch === " " || ch === "\t" || ch === "\n") break;
      i++;
      if (ch === '"') {
        let closed = false;
        while (i < n) {
          const q = input[i++]!;
          if (q === '"') {
            closed = true;
            break;
          }
          if (q === "\\") {
            if (i >= n) return undefined;
            const e = input[i++]!;
            if (e === "$" || e === "`" || e === '"' || e === "\\") word += e;
            else if (e !== "\n") word += "\\" + e;
          } else word += q;
        }
        if (!closed) return undefined;
      } else if (ch === "'") {
        const close = input.indexOf("'", i);
        if (close < 0) return undefined;
        word += input.slice(i, close);
        i = close + 1;
      } else if (ch === "\\") {
        if (i >= n) return undefined;
        const e = input[i++]!;
        if (e !== "\n") word += e;
      } else word += ch;
    }
    words.push(word);
  }
  return words;
}

const SAFE = /^[A-Za-z0-9,._+:@%/=-]+$/;

/** Quote one word for a POSIX shell (display only: any correct quoting splits back to the same word). */
export function shlexQuote(word: string): string {
  if (word === "") return "''";
  if (SAFE.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  return `"${word.replace(/[$`"\\]/g, (m) => "\\" + m)}"`;
}

export function shlexJoin(argv: readonly string[]): string {
  return argv.map(shlexQuote).join(" ");
}
