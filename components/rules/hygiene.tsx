"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import type { Finding, FindingKind, Severity } from "@/lib/hygiene/types";
import type { CleanUpFile } from "@/lib/entries/hygiene-workspace";
import type { EntryFilters } from "@/lib/entries/filters";
import { cleanUpConfirm, cleanUpPreview, unwrap } from "@/lib/client/api";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { revealDeep } from "@/lib/text/reveal";
import { hygieneQuery, narrowSuggestionsQuery } from "./query";
import styles from "./rules.module.css";
import type { WriteOutcome } from "./write-outcome";

export { hygieneKey } from "./query";

export function useHygiene(workspace: string) {
  return useQuery(hygieneQuery(workspace));
}

/** Findings per entry id, for the badges on each row. */
export const FindingsContext = createContext<Map<string, Finding[]>>(new Map());

export function byEntry(findings: Finding[] | undefined): Map<string, Finding[]> {
  const map = new Map<string, Finding[]>();
  for (const f of findings ?? []) {
    const list = map.get(f.entry);
    if (list) list.push(f);
    else map.set(f.entry, [f]);
  }
  return map;
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** The worst severity among an entry's findings (0 when it has none): problems sort first. */
export function worstRank(findings: Finding[] | undefined): number {
  return Math.max(0, ...(findings ?? []).map((f) => RANK[f.severity]));
}

/** One badge per finding on an entry; the reason unfolds on a tap (each badge is a 44 px target). */
export function FindingBadges({ id }: { id: string }) {
  const listed = useContext(FindingsContext).get(id);
  if (!listed?.length) return null;
  // Messages quote the rules they are about.
  const findings = revealDeep(listed).value;
  return (
    <div className={styles.meta} data-testid="hygiene-badges">
      {findings.map((f, i) => (
        <details key={i} className={styles.finding} data-kind={f.kind}>
          <summary title={f.message}>
            <span className={`tag ${styles[`sev_${f.severity}`] ?? ""}`}>{f.kind}</span>
          </summary>
          <span className="muted">{f.message}</span>
        </details>
      ))}
    </div>
  );
}

/**
 * "Narrow to `Bash(git status:*)`" on an over-broad rule: the engine's first provable suggestion, one tap away from
 * the narrow dialog (which still shows the proof and the impact before saving).
 */
export function NarrowTo({
  workspace,
  entryId,
  onNarrow,
}: {
  workspace: string;
  entryId: string;
  onNarrow: (to: string) => void;
}) {
  const overBroad = useContext(FindingsContext)
    .get(entryId)
    ?.some((f) => f.kind === "over-broad");
  const suggestions = useQuery({ ...narrowSuggestionsQuery(workspace, entryId), enabled: !!overBroad });
  // A narrower rule when the engine has one, else turning the allow into an ask.
  const first = suggestions.data?.find((x) => x !== "ask" && x !== "deny") ?? suggestions.data?.[0];
  if (!overBroad || !first) return null;
  return (
    <Button variant="primary" onClick={() => onNarrow(first)} data-testid="narrow-to">
      Narrow to <code>{revealDeep(first).value}</code>
    </Button>
  );
}

const KIND_LABEL: Partial<Record<FindingKind, string>> = { "one-off": "one-off", "over-broad": "over-broad" };

/**
 * The lint as a to-do list: "47 rules: 2 over-broad, 3 shadowed, 9 covered", each count a filter of the list
 * below (`?finding=over-broad`), coloured by severity, problems first; and Clean up for the removable ones.
 */
export function HygieneSummary({
  workspace,
  canWrite,
  active,
  onFilter,
  onCleanUp,
}: {
  workspace: string;
  canWrite: boolean;
  active: EntryFilters["finding"];
  onFilter: (finding: EntryFilters["finding"]) => void;
  onCleanUp: () => void;
}) {
  const { data, error } = useHygiene(workspace);
  if (error) return null;
  const counts = data?.summary.counts ?? {};
  const severity = new Map<FindingKind, Severity>();
  for (const f of data?.findings ?? [])
    if (RANK[f.severity] > RANK[severity.get(f.kind) ?? "info"] || !severity.has(f.kind))
      severity.set(f.kind, f.severity);
  const kinds = (Object.keys(counts) as FindingKind[]).sort(
    (a, b) => RANK[severity.get(b) ?? "info"] - RANK[severity.get(a) ?? "info"],
  );
  const problems = new Set((data?.findings ?? []).filter((f) => f.severity !== "info").map((f) => f.entry)).size;
  const removable = (counts.duplicate ?? 0) + (counts.covered ?? 0);
  return (
    <section className={`card ${styles.hygiene}`} aria-label="Hygiene" data-testid="hygiene-summary">
      <div className={styles.hygieneHead}>
        <span>
          <strong>Hygiene</strong> {data ? <span data-testid="hygiene-text">{data.summary.text}</span> : "checking…"}
        </span>
        {canWrite && removable > 0 ? <Button onClick={onCleanUp}>Clean up ({removable})</Button> : null}
      </div>
      {kinds.length ? (
        <div className={styles.findingFilters} role="group" aria-label="Show only entries with">
          {problems ? (
            <button
              type="button"
              className={`${styles.findingFilter} ${styles.sev_warning}`}
              aria-pressed={active === "problems"}
              onClick={() => onFilter(active === "problems" ? undefined : "problems")}
              data-testid="finding-filter-problems"
            >
              {problems} {problems === 1 ? "problem" : "problems"}
            </button>
          ) : null}
          {kinds.map((k) => (
            <button
              key={k}
              type="button"
              className={`${styles.findingFilter} ${styles[`sev_${severity.get(k) ?? "info"}`]}`}
              aria-pressed={active === k}
              onClick={() => onFilter(active === k ? undefined : k)}
              data-testid={`finding-filter-${k}`}
            >
              {counts[k]} {KIND_LABEL[k] ?? k}
            </button>
          ))}
          {active ? (
            <Button onClick={() => onFilter(undefined)} data-testid="finding-filter-clear">
              Show all
            </Button>
          ) : null}
        </div>
      ) : null}
      {data?.notes.map((n) => (
        <p key={n} className={`muted ${styles.hygieneNote}`}>
          {n}
        </p>
      ))}
    </section>
  );
}

type Preview = { files: CleanUpFile[]; written: boolean };

/** Shows each file's diff and the proof per removal; writes only after confirmation, at the previewed versions. */
export function CleanUpDialog({
  workspace,
  onClose,
  onDone,
}: {
  workspace: string;
  onClose: () => void;
  onDone: (o: WriteOutcome) => void;
}) {
  const planned = useQuery({
    queryKey: ["hygiene", workspace, "clean-up"],
    queryFn: () => unwrap(cleanUpPreview<Preview>(workspace)),
    staleTime: 0,
    gcTime: 0,
  });
  // Rules, paths and diff lines come from the files: reveal them as cards do; confirm with the versions as listed.
  const { value: preview, hidden } = revealDeep(planned.data ?? null);
  const count = preview?.files.reduce((n, f) => n + f.removed.length, 0) ?? 0;
  const confirm = useMutation({
    mutationFn: () =>
      unwrap(
        cleanUpConfirm<Preview>(workspace, Object.fromEntries(planned.data!.files.map((f) => [f.store, f.version]))),
      ),
    onSuccess: (r) =>
      onDone({
        message: `Removed ${count} ${count === 1 ? "entry" : "entries"} from ${r.files.length} file(s); 0 decisions change.`,
      }),
  });
  const error = planned.error ?? confirm.error;
  return (
    <Dialog
      title="Clean up duplicate and covered rules"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            onClick={() => confirm.mutate()}
            disabled={!preview || count === 0}
            busy={confirm.isPending}
            busyLabel="Writing…"
          >
            Remove {count} {count === 1 ? "entry" : "entries"}
          </Button>
        </>
      }
    >
      {error ? <Alert>{error.message}</Alert> : null}
      {!preview && !error ? <p className="muted">Computing the new files…</p> : null}
      {preview && count === 0 ? <p>Nothing to clean up.</p> : null}
      {hidden ? (
        <p className="warning">
          <HiddenTextWarning hidden /> These files contain hidden characters, shown as ⟨U+…⟩: read each line as shown.
        </p>
      ) : null}
      {preview && count > 0 ? (
        <p data-testid="cleanup-proof">
          <strong>0 decisions change.</strong> Every removed rule is a duplicate or is covered by a rule that stays and
          reaches at least as far, so each call is decided exactly as before.
        </p>
      ) : null}
      {preview?.files.map((f) => (
        <div key={f.store} className={`stack ${styles.cleanupFile}`} data-testid="cleanup-file">
          <p className={`mono ${styles.cleanupStore}`}>
            {f.store} {f.scope === "global" ? <span className="warning">(global: affects every project)</span> : null}
          </p>
          <ul className={styles.cleanupList}>
            {f.removed.map((r) => (
              <li key={r.id}>
                line {r.line}: <code>{r.rule}</code> — {r.proof}
              </li>
            ))}
          </ul>
          <pre className={styles.diff} data-testid="cleanup-diff">
            {f.diff}
          </pre>
        </div>
      ))}
    </Dialog>
  );
}
