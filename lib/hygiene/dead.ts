/**
 * dead: allow rules, grants and profiles that decided nothing in the last N days, from the audit log's usage
 * counts. Deny and ask rules are guards: never firing is their job, so they are never called dead.
 */
import { quote } from "./describe";
import type { Finding, LintInput, LintItem } from "./types";

export const DEFAULT_DEAD_DAYS = 30;
export const NO_USAGE_NOTE =
  "No usage data yet: dead-rule detection needs the audit log's usage counts, so no rule is reported as dead.";

export function findDead(input: LintInput, items: LintItem[]): { findings: Finding[]; notes: string[] } {
  if (!input.usage) return { findings: [], notes: [NO_USAGE_NOTE] };
  const days = input.deadDays ?? DEFAULT_DEAD_DAYS;
  const now = Date.parse(input.now ?? new Date().toISOString());
  const cutoff = now - days * 86_400_000;
  const findings: Finding[] = [];
  for (const it of items) {
    if (it.entry.action !== "allow" || it.entry.malformed) continue;
    const u = input.usage[it.entry.id];
    const last = u?.lastUsed ? Date.parse(u.lastUsed) : NaN;
    if (u && !Number.isNaN(last) && last >= cutoff) continue;
    // A rule added after usage recording began may simply be new; its creation time says so when known.
    const created = it.entry.createdAt ? Date.parse(it.entry.createdAt) : NaN;
    if (!Number.isNaN(created) && created >= cutoff) continue;
    findings.push({
      kind: "dead",
      severity: "info",
      entry: it.entry.id,
      message: u?.lastUsed
        ? `${quote(it)} has not decided a call in the last ${days} days (last used ${u.lastUsed.slice(0, 10)}, ${u.count} use${u.count === 1 ? "" : "s"} recorded)`
        : `${quote(it)} has not decided any call since usage recording began (${days}-day window)`,
    });
  }
  return { findings, notes: [] };
}
