/**
 * The rule-hygiene lint: pure, over the entries as `listEntries` and the engine understand them.
 * Severities: error — over-broad (arbitrary code or writes to root/home); warning — shadowed allows,
 * conflicting files, ineffective entries (the rule does not do what its author thinks); info — duplicate,
 * covered, moot asks, one-offs and dead rules (clutter that is safe to remove).
 */
import { findOneOff, findOverBroad } from "./danger";
import { findDead } from "./dead";
import { findIneffective } from "./ineffective";
import { findCovered, findDuplicates } from "./redundancy";
import { findShadowed } from "./shadow";
import { FINDING_KINDS, type Finding, type LintInput, type LintResult, type Severity } from "./types";

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export function lintWorkspace(input: LintInput): LintResult {
  const items = input.items.filter((it) => it.entry.store.valid);
  const duplicates = findDuplicates(input, items);
  const dupIds = new Set(duplicates.map((f) => f.entry));
  const dead = findDead(input, items);
  const overBroad = findOverBroad(input, items);
  const findings: Finding[] = [
    ...overBroad,
    ...findShadowed(input, items, dupIds),
    ...findIneffective(items),
    ...duplicates,
    ...findCovered(input, items, dupIds, new Set(overBroad.map((f) => f.entry))),
    ...findOneOff(items),
    ...dead.findings,
  ];
  const order = new Map(input.items.map((it, i) => [it.entry.id, i]));
  const n = input.items.length + 1;
  const rank = (f: Finding) =>
    ((2 - SEVERITY_RANK[f.severity]) * FINDING_KINDS.length + FINDING_KINDS.indexOf(f.kind)) * n +
    (order.get(f.entry) ?? 0);
  const sorted = findings
    .map((f) => ({ f, r: rank(f) }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.f);
  return { findings: sorted, notes: dead.notes };
}

/** Findings merged from several lints, errors first (stable within a severity). */
export function bySeverity(findings: Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_RANK[b.f.severity] - SEVERITY_RANK[a.f.severity] || a.i - b.i)
    .map((x) => x.f);
}

/** Does any finding reach the threshold (for `--fail-on`)? */
export function reachesThreshold(findings: Finding[], threshold: Severity): boolean {
  return findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[threshold]);
}

/** Ids of entries "Clean up" removes: duplicates and covered rules (removing them changes no decision). */
export function removableIds(findings: Finding[]): string[] {
  return [...new Set(findings.filter((f) => f.kind === "duplicate" || f.kind === "covered").map((f) => f.entry))];
}
