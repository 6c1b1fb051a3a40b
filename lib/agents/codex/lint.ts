/**
 * Rule hygiene for Codex's prefix rules, in Codex's own semantics: every matching rule counts and the strictest
 * decision wins, whichever file it is in. Over the listed entries (rules files and admin requirements):
 *   duplicate   — the same pattern and decision as an earlier entry (info: removing it changes nothing)
 *   covered     — every command it matches, another entry with the same decision matches too (info)
 *   shadowed    — a stricter entry matches every command it matches: it never decides (warning)
 *   conflicting — some commands match both it and a stricter entry in another file, which wins for them (warning)
 * and the loudest state as an error: a broken rules file makes Codex ignore every rule. Pure.
 */
import type { Finding } from "@/lib/hygiene/types";
import type { CodexListing, LocatedCodexEntry } from "./listing";
import { failureBanner, patternWords } from "./rule-text";
import { shlexJoin } from "./shlex";
import type { CodexDecision, PatternToken } from "./types";

const RANK: Record<CodexDecision, number> = { allow: 0, prompt: 1, forbidden: 2 };

interface Item {
  id: string;
  pattern: readonly PatternToken[];
  decision: CodexDecision;
  where: string;
  file: string;
}

const alts = (t: PatternToken): readonly string[] => (typeof t === "string" ? [t] : t);

/** Every command `narrow` matches, `wide` matches too. */
function covers(wide: readonly PatternToken[], narrow: readonly PatternToken[]): boolean {
  if (wide.length > narrow.length) return false;
  return wide.every((w, i) => alts(narrow[i]!).every((a) => alts(w).includes(a)));
}

/** A command both match, or undefined when none does. */
function overlap(a: readonly PatternToken[], b: readonly PatternToken[]): string[] | undefined {
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] === undefined ? undefined : alts(a[i]!);
    const y = b[i] === undefined ? undefined : alts(b[i]!);
    const both = x && y ? x.filter((t) => y.includes(t)) : (x ?? y)!;
    if (!both.length) return undefined;
    out.push(both[0]!);
  }
  return out;
}

function same(a: readonly PatternToken[], b: readonly PatternToken[]): boolean {
  return covers(a, b) && covers(b, a);
}

function itemOf(l: LocatedCodexEntry): Item | undefined {
  const t = l.target;
  const rule = t.kind === "call" ? t.call.prefixRules[0] : t.kind === "requirement" ? t.rule : undefined;
  if (!rule || (t.kind === "call" && t.call.fn !== "prefix_rule")) return undefined;
  return {
    id: l.entry.id,
    pattern: rule.pattern,
    decision: rule.decision,
    where: `${l.entry.store.path}:${l.entry.line}`,
    file: l.entry.store.path,
  };
}

export function lintCodex(
  listing: Pick<CodexListing, "located" | "stores">,
  failure?: { file: string; line: number; message: string },
): Finding[] {
  const findings: Finding[] = [];
  if (failure)
    findings.push({
      kind: "ineffective",
      severity: "error",
      entry: failure.file,
      message: `${failureBanner(failure)}. Every rule in every Codex rules file is ignored, forbidden ones included, until it is fixed.`,
    });
  // Only what Codex reads: an untrusted project's rules decide nothing.
  const inactive = new Set(listing.stores.filter((s) => s.inactive).map((s) => s.path));
  const items = listing.located.filter((l) => !inactive.has(l.file.path)).flatMap((l) => itemOf(l) ?? []);
  const flagged = new Set<string>();
  for (const [i, a] of items.entries()) {
    for (const [j, b] of items.entries()) {
      if (i === j || flagged.has(a.id)) continue;
      const words = patternWords(b.pattern);
      if (a.decision === b.decision) {
        if (same(a.pattern, b.pattern)) {
          if (j < i) {
            findings.push({
              kind: "duplicate",
              severity: "info",
              entry: a.id,
              by: b.id,
              message: `same pattern and decision as ${b.where} (${words})`,
            });
            flagged.add(a.id);
          }
        } else if (covers(b.pattern, a.pattern)) {
          findings.push({
            kind: "covered",
            severity: "info",
            entry: a.id,
            by: b.id,
            message: `every command it matches, ${b.where} (${words}, ${b.decision}) matches too`,
          });
          flagged.add(a.id);
        }
        continue;
      }
      if (RANK[b.decision] <= RANK[a.decision]) continue;
      if (covers(b.pattern, a.pattern)) {
        findings.push({
          kind: "shadowed",
          severity: "warning",
          entry: a.id,
          by: b.id,
          message: `never decides: every command it matches, ${b.where} (${words}) matches too, and ${b.decision} is stricter than ${a.decision} (Codex takes the strictest)`,
        });
        flagged.add(a.id);
        continue;
      }
      // A carve-out in the same file is deliberate; files that disagree about the same commands are worth a look.
      const both = a.file === b.file ? undefined : overlap(a.pattern, b.pattern);
      if (both)
        findings.push({
          kind: "conflicting",
          severity: "warning",
          entry: a.id,
          by: b.id,
          message: `\`${shlexJoin(both)}\` matches both this (${a.decision}) and ${b.where} (${words}, ${b.decision}): Codex takes the stricter ${b.decision}`,
        });
    }
  }
  return findings;
}
