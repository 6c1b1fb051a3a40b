/** Types of the rule-hygiene lint. Pure data: no I/O. */
import type { Rule } from "@/lib/policy";
import type { Entry, ParsedEntry } from "@/lib/stores/types";

export type FindingKind =
  "duplicate" | "covered" | "shadowed" | "conflicting" | "ineffective" | "over-broad" | "one-off" | "dead";
export type Severity = "info" | "warning" | "error";

export const FINDING_KINDS: FindingKind[] = [
  "over-broad",
  "shadowed",
  "conflicting",
  "ineffective",
  "duplicate",
  "covered",
  "one-off",
  "dead",
];

/** One lint result; `entry` and `by` are the ids `cockpit entries` and the Rules page use. */
export interface Finding {
  kind: FindingKind;
  severity: Severity;
  entry: string;
  /** The covering, duplicated, shadowing or conflicting entry. */
  by?: string;
  message: string;
}

/** What the lint reads: one listed entry with what the engine understood of it (lib/stores/types.ts). */
export type LintItem = ParsedEntry;

/** How often an entry decided a call, from the audit log. */
export interface Usage {
  lastUsed: string | null;
  count: number;
}

export interface LintInput {
  workspace: string;
  home: string;
  items: LintItem[];
  /** Entry id → usage; absent means "no usage data yet" (dead-rule detection is skipped). */
  usage?: Record<string, Usage>;
  /** ISO time "now" for dead-rule detection (default: the current time). */
  now?: string;
  /** Days without use after which an allow is dead (default 30). */
  deadDays?: number;
}

export interface LintResult {
  findings: Finding[];
  /** Things the lint could not check, said plainly (e.g. no usage data yet). */
  notes: string[];
}
