import { InvalidInputError } from "@/lib/errors";
import { ACTIONS } from "@/lib/policy/types";
import type { Action } from "./types";

/**
 * The textual SPEC `narrow --to` takes.
 * JSON stores: `allow|ask|deny` (change the action) or a rule text (`Shell(git status:*)`).
 * mevedel: a full form `("Bash" :pattern "…" :action allow)` / `(:path "…" :access read)`, or
 * whitespace-separated modifiers (quote values with spaces: `pattern:"git log *"`):
 *   allow|ask|deny · pattern:V · path:V · domain:V · name:V · expression:V   (rules)
 *   exact · read · path:P                                                    (grants)
 *   network:off · drop-fs:P · fs-exact:P · fs-read:P                         (profiles)
 */
export type Modifier =
  | { op: "action"; action: Action }
  | { op: "specifier"; key: "pattern" | "path" | "domain" | "name" | "expression"; value: string }
  | { op: "exact" }
  | { op: "read" }
  | { op: "network-off" }
  | { op: "drop-fs"; path: string }
  | { op: "fs-exact"; path: string }
  | { op: "fs-read"; path: string };

export const isAction = (s: string): s is Action => (ACTIONS as readonly string[]).includes(s);

/** Split on whitespace, honouring double quotes with `\"` and `\\` escapes. */
function tokenize(spec: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < spec.length) {
    while (i < spec.length && /\s/.test(spec[i])) i++;
    if (i >= spec.length) break;
    let token = "";
    while (i < spec.length && !/\s/.test(spec[i])) {
      if (spec[i] === '"') {
        i++;
        while (i < spec.length && spec[i] !== '"') {
          if (spec[i] === "\\" && i + 1 < spec.length) i++;
          token += spec[i++];
        }
        if (spec[i] !== '"') throw new InvalidInputError("unterminated quote in SPEC");
        i++;
      } else token += spec[i++];
    }
    out.push(token);
  }
  return out;
}

export function parseModifiers(spec: string): Modifier[] {
  const tokens = tokenize(spec);
  if (!tokens.length) throw new InvalidInputError("empty SPEC");
  return tokens.map((token): Modifier => {
    if (isAction(token)) return { op: "action", action: token };
    if (token === "exact") return { op: "exact" };
    if (token === "read") return { op: "read" };
    if (token === "network:off" || token === "network:nil") return { op: "network-off" };
    const m = /^([a-z-]+):([\s\S]+)$/.exec(token);
    if (m) {
      const [, key, value] = m;
      if (key === "pattern" || key === "path" || key === "domain" || key === "name" || key === "expression")
        return { op: "specifier", key, value };
      if (key === "drop-fs") return { op: "drop-fs", path: value };
      if (key === "fs-exact") return { op: "fs-exact", path: value };
      if (key === "fs-read") return { op: "fs-read", path: value };
    }
    throw new InvalidInputError(`unknown SPEC item "${token}" (see docs/stores.md, "Narrowing SPEC")`);
  });
}
