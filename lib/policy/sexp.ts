import { readSexps, SexpError, type Datum } from "@/lib/sexp/read";

/** The policy engine's view of a datum: mevedel rule forms only need lists, strings and symbols. */
export type Sexp = { t: "list"; items: Sexp[] } | { t: "str"; v: string } | { t: "sym"; v: string };

function convert(d: Datum): Sexp {
  switch (d.type) {
    case "list":
      return { t: "list", items: d.items.map(convert) };
    case "string":
      return { t: "str", v: d.value };
    case "symbol":
    case "keyword":
      return { t: "sym", v: d.name };
    case "number":
      return { t: "sym", v: String(d.value) };
    case "nil":
      return { t: "sym", v: "nil" };
    case "t":
      return { t: "sym", v: "t" };
  }
}

/** Reads exactly one form with the project's restricted reader (lib/sexp); never throws. */
export function readSexp(text: string): { ok: true; value: Sexp; rest: string } | { ok: false; error: string } {
  try {
    const { data } = readSexps(text);
    if (data.length === 0) return { ok: false, error: "unexpected end of input" };
    return { ok: true, value: convert(data[0]!), rest: data.length > 1 ? text.slice(data[1]!.start) : "" };
  } catch (error) {
    if (error instanceof SexpError) return { ok: false, error: error.message };
    throw error;
  }
}
