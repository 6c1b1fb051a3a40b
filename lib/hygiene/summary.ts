import { FINDING_KINDS, type Finding, type FindingKind } from "./types";

export interface HygieneSummary {
  rules: number;
  counts: Partial<Record<FindingKind, number>>;
  text: string;
}

/** "47 rules: 9 covered, 3 shadowed, 2 over-broad" — each entry counted once per kind. */
export function summarize(entryCount: number, findings: Finding[]): HygieneSummary {
  const counts: Partial<Record<FindingKind, number>> = {};
  const seen = new Set<string>();
  for (const f of findings) {
    const k = `${f.kind}\0${f.entry}`;
    if (seen.has(k)) continue;
    seen.add(k);
    counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  }
  const parts = FINDING_KINDS.filter((k) => counts[k]).map((k) => `${counts[k]} ${k}`);
  const noun = entryCount === 1 ? "rule" : "rules";
  return {
    rules: entryCount,
    counts,
    text: `${entryCount} ${noun}: ${parts.length ? parts.join(", ") : "no findings"}`,
  };
}
