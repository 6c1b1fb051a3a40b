import path from "node:path";
import { InvalidInputError } from "@/lib/errors";
import { applySplices, type Splice } from "./plist-edit";
import { printString, readSexps, type Datum } from "@/lib/sexp/read";

/** `~` and `~/x` against the given home; other paths unchanged. */
export function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return path.join(home, p.slice(2));
  return p;
}

/** Inverse of expandHome: mevedel files store paths under home as `~/…`. */
export function abbreviateHome(p: string, home: string): string {
  const h = path.resolve(home);
  if (p === h) return "~";
  if (p.startsWith(h + path.sep)) return `~/${p.slice(h.length + 1)}`;
  return p;
}

/** Read one `(…)` form an author typed; reader errors become input errors. */
export function readOneForm(text: string): Datum & { type: "list" } {
  let data: Datum[];
  try {
    data = readSexps(text).data;
  } catch (error) {
    throw new InvalidInputError(`invalid form: ${(error as Error).message}`);
  }
  if (data.length !== 1 || data[0].type !== "list") throw new InvalidInputError("give exactly one (…) form");
  return data[0];
}

/** The text of a typed form with every `:path "/home/me/x"` written as `:path "~/x"`. */
export function abbreviateFormPaths(text: string, home: string): string {
  const form = readOneForm(text);
  const splices: Splice[] = [];
  const work: Datum[] = [form];
  while (work.length) {
    const d = work.pop()!;
    if (d.type !== "list") continue;
    d.items.forEach((item, k) => {
      const prev = d.items[k - 1];
      if (item.type === "string" && prev?.type === "keyword" && prev.name === ":path") {
        const short = abbreviateHome(item.value, home);
        if (short !== item.value) splices.push([item.start, item.end, printString(short)]);
      }
      work.push(item);
    });
  }
  const spliced = applySplices(text, splices);
  return spliced.slice(form.start, form.end + spliced.length - text.length);
}
