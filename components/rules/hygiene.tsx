"use client";
import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState } from "react";
import type { Finding } from "@/lib/hygiene/types";
import type { CleanUpFile, WorkspaceHygiene } from "@/lib/entries/hygiene-workspace";
import { cleanUpPreview, cleanUpConfirm, fetchHygiene } from "@/lib/client/api";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { revealDeep } from "@/lib/text/reveal";
import { Modal } from "./modal";
import styles from "./rules.module.css";
import type { WriteOutcome } from "./write-outcome";

export const hygieneKey = (workspace: string) => ["hygiene", workspace] as const;

export function useHygiene(workspace: string) {
  return useQuery({
    queryKey: hygieneKey(workspace),
    queryFn: async () => {
      const r = await fetchHygiene(workspace);
      if (!r.ok) throw new Error(r.error);
      return r.data;
    },
    staleTime: 5_000,
  });
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

/** One badge per finding kind on an entry; the message is the title and unfolds on click. */
export function FindingBadges({ id }: { id: string }) {
  const listed = useContext(FindingsContext).get(id);
  if (!listed?.length) return null;
  // Messages quote the rules they are about.
  const findings = revealDeep(listed).value;
  return (
    <div className={styles.meta} data-testid="hygiene-badges">
      {findings.map((f, i) => (
        <details key={i} className={styles.finding} data-kind={f.kind}>
          <summary className={`tag ${styles[`sev_${f.severity}`] ?? ""}`} title={f.message}>
            {f.kind}
          </summary>
          <span className="muted">{f.message}</span>
        </details>
      ))}
    </div>
  );
}

/** "47 rules: 9 covered, 3 shadowed, 2 over-broad" with the Clean up action. */
export function HygieneSummary({
  workspace,
  canWrite,
  onCleanUp,
}: {
  workspace: string;
  canWrite: boolean;
  onCleanUp: () => void;
}) {
  const { data, error } = useHygiene(workspace);
  if (error) return null;
  const removable = (data?.summary.counts.duplicate ?? 0) + (data?.summary.counts.covered ?? 0);
  return (
    <section className="card" aria-label="Hygiene" data-testid="hygiene-summary" style={{ marginBottom: "0.75rem" }}>
      <div className="row" style={{ justifyContent: "space-between", flexWrap: "wrap", gap: "0.5rem" }}>
        <span>
          <strong>Hygiene</strong> {data ? <span data-testid="hygiene-text">{data.summary.text}</span> : "checking…"}
        </span>
        {canWrite && removable > 0 ? (
          <button type="button" onClick={onCleanUp}>
            Clean up ({removable})
          </button>
        ) : null}
      </div>
      {data?.notes.map((n) => (
        <p key={n} className="muted" style={{ margin: "0.3rem 0 0", fontSize: "0.85rem" }}>
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
  const [listed, setPreview] = useState<Preview | null>(null);
  // Rules, paths and diff lines come from the files: reveal them as cards do; confirm with the versions as listed.
  const { value: preview, hidden } = revealDeep(listed);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void cleanUpPreview<Preview>(workspace).then((r) => {
      if (!live) return;
      if (r.ok) setPreview(r.data);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [workspace]);
  const count = preview?.files.reduce((n, f) => n + f.removed.length, 0) ?? 0;
  async function confirm() {
    if (!listed) return;
    setBusy(true);
    const versions = Object.fromEntries(listed.files.map((f) => [f.store, f.version]));
    const r = await cleanUpConfirm<Preview>(workspace, versions);
    setBusy(false);
    if (!r.ok) return setError(r.status === 409 ? `${r.error}` : r.error);
    onDone({
      message: `Removed ${count} ${count === 1 ? "entry" : "entries"} from ${r.data.files.length} file(s); 0 decisions change.`,
    });
  }
  return (
    <Modal
      title="Clean up duplicate and covered rules"
      onClose={onClose}
      footer={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => void confirm()}
            disabled={!preview || count === 0 || busy}
          >
            {busy ? "Writing…" : `Remove ${count} ${count === 1 ? "entry" : "entries"}`}
          </button>
        </>
      }
    >
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
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
        <div key={f.store} className="stack" style={{ gap: "0.3rem" }} data-testid="cleanup-file">
          <p className="mono" style={{ overflowWrap: "anywhere", margin: "0.5rem 0 0" }}>
            {f.store} {f.scope === "global" ? <span className="warning">(global: affects every project)</span> : null}
          </p>
          <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
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
    </Modal>
  );
}
