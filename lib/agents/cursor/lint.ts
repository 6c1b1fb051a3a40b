/**
 * Rule hygiene for Cursor's `permissions` entries, in Cursor's semantics as the cockpit reads them (deny beats allow;
 * allow entries count from the deepest file with an allow list, plain JSON only):
 *   ineffective — a file that does not parse (error: no allow counts while it is broken), a string Cursor does not
 *                 document, an allow entry set aside (an outer file's, or a file with comments)
 *   shadowed    — a deny entry covers every call this allow entry allows: it never allows (warning)
 *   duplicate   — the same string again in the same list (info)
 *   covered     — another entry of the same list covers every call this one matches (info)
 * Pure: the listed stores are handed in.
 */
import type { Finding } from "@/lib/hygiene/types";
import type { CursorRule, CursorStore } from "./config";
import { effectiveRules } from "./decide";
import { findCursorEntryId } from "./entries";
import { tokenCovers } from "./narrow";

export function lintCursor(stores: CursorStore[]): Finding[] {
  const findings: Finding[] = [];
  const id = (r: CursorRule) => findCursorEntryId(stores, r);
  for (const s of stores)
    if (!s.valid && s.exists)
      findings.push({
        kind: "ineffective",
        severity: "error",
        entry: s.path,
        message: `${s.path} does not parse (${s.error}): nothing is allowed while it is broken, and the cockpit never rewrites it.`,
      });
  const eff = effectiveRules(stores);
  const set = new Set(eff.shadowed);
  const flagged = new Set<CursorRule>();
  const all = stores.filter((s) => s.valid).flatMap((s) => s.rules);
  for (const r of all) {
    if (!r.token) {
      flagged.add(r);
      findings.push({
        kind: "ineffective",
        severity: "warning",
        entry: id(r),
        message: `${r.text} is not a permission Cursor documents (${r.error ?? "unknown form"}): it matches nothing.`,
      });
    } else if (set.has(r)) {
      flagged.add(r);
      const store = stores.find((s) => s.path === r.store);
      findings.push({
        kind: "ineffective",
        severity: "warning",
        entry: id(r),
        message:
          store && !store.strictJson
            ? `${r.store} is not plain JSON (comments or trailing commas), as Cursor reads it: its allow entries are not counted (inferred).`
            : `A deeper .cursor/cli.json has its own allow list; Cursor's merge of lists is undocumented, so this outer allow is not counted (inferred).`,
      });
    }
  }
  for (const [i, r] of all.entries()) {
    if (flagged.has(r) || !r.token) continue;
    const earlier = all
      .slice(0, i)
      .find((o) => o.action === r.action && o.token && !flagged.has(o) && o.text === r.text);
    if (earlier) {
      flagged.add(r);
      findings.push({
        kind: "duplicate",
        severity: "info",
        entry: id(r),
        by: id(earlier),
        message: `${r.text} is already in permissions.${r.action} (${earlier.store}:${earlier.line}): removing one changes nothing.`,
      });
      continue;
    }
    if (r.action === "allow") {
      const deny = eff.deny.find((d) => d.token && tokenCovers(d.token, r.token!) === null);
      if (deny) {
        flagged.add(r);
        findings.push({
          kind: "shadowed",
          severity: "warning",
          entry: id(r),
          by: id(deny),
          message: `${deny.text} (${deny.store}:${deny.line}) denies every call ${r.text} allows; deny beats allow, so it never allows.`,
        });
        continue;
      }
    }
    const wider = all.find(
      (o) =>
        o !== r &&
        o.action === r.action &&
        o.token &&
        !flagged.has(o) &&
        o.text !== r.text &&
        tokenCovers(o.token, r.token!) === null,
    );
    if (wider) {
      flagged.add(r);
      findings.push({
        kind: "covered",
        severity: "info",
        entry: id(r),
        by: id(wider),
        message: `${wider.text} (${wider.store}:${wider.line}) already ${r.action}s every call ${r.text} matches: removing it changes nothing.`,
      });
    }
  }
  return findings;
}
