/** A minimal Emacs Lisp reader for mevedel permission plists: lists, strings, symbols. */

export type Sexp = { t: "list"; items: Sexp[] } | { t: "str"; v: string } | { t: "sym"; v: string };

/** Read one form from text. Returns an error instead of throwing. */
export function readSexp(text: string): { ok: true; value: Sexp; rest: string } | { ok: false; error: string } {
  let i = 0;
  const skip = () => {
    while (i < text.length) {
      const c = text[i];
      if (c === ";") while (i < text.length && text[i] !== "\n") i++;
      else if (/\s/.test(c) || c === "'" || c === "`") i++;
      else break;
    }
  };
  const read = (depth: number): Sexp | string => {
    if (depth > 64) return "nesting too deep";
    skip();
    if (i >= text.length) return "unexpected end of input";
    const c = text[i];
    if (c === "(") {
      i++;
      const items: Sexp[] = [];
      for (;;) {
        skip();
        if (i >= text.length) return "missing )";
        if (text[i] === ")") { i++; return { t: "list", items }; }
        const item = read(depth + 1);
        if (typeof item === "string") return item;
        items.push(item);
      }
    }
    if (c === ")") return "unexpected )";
    if (c === '"') {
      i++;
      let v = "";
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\" && i + 1 < text.length) { i++; v += text[i] === "n" ? "\n" : text[i] === "t" ? "\t" : text[i]; }
        else v += text[i];
        i++;
      }
      if (i >= text.length) return "unterminated string";
      i++;
      return { t: "str", v };
    }
    let v = "";
    while (i < text.length && !/[\s()";]/.test(text[i])) v += text[i++];
    return { t: "sym", v };
  };
  const value = read(0);
  if (typeof value === "string") return { ok: false, error: value };
  return { ok: true, value, rest: text.slice(i) };
}
