"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Icon } from "@/components/ui/icon";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { revealDeep } from "@/lib/text/reveal";
import { ApiError, checkNarrowing, narrowEntry, unwrap, type EntryView } from "@/lib/client/api";
import { ImpactPreview } from "./impact-preview";
import { narrowSuggestionsQuery } from "./query";
import styles from "./rules.module.css";
import type { WriteOutcome } from "./write-outcome";

type Check =
  { state: "idle" } | { state: "checking"; to: string } | { state: "proved" | "refused"; to: string; reason: string };

const isPlist = (e: EntryView) => e.store.format === "mevedel-plist";

/** Hook: debounced live check of a SPEC against the engine's proof (nothing is written). */
function useNarrowCheck(workspace: string, entry: EntryView, to: string): Check {
  const [check, setCheck] = useState<Check>({ state: "idle" });
  useEffect(() => {
    const spec = to.trim();
    if (!spec || spec === entry.rule) {
      setCheck({ state: "idle" });
      return;
    }
    setCheck({ state: "checking", to: spec });
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const res = await checkNarrowing({ workspace, id: entry.id, to: spec }, abort.signal);
        if (res.ok) setCheck({ state: res.data.proved ? "proved" : "refused", to: spec, reason: res.data.reason });
        else setCheck({ state: "refused", to: spec, reason: res.error });
      } catch {
        // Aborted: a newer keystroke owns the check.
      }
    }, 300);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [workspace, entry.id, entry.rule, to]);
  return check;
}

/** Replace an entry with a narrower one: suggestions as chips, live proof, Save only when proved. */
export function NarrowDialog({
  workspace,
  entry,
  onClose,
  onDone,
  onRefresh,
  initialTo,
}: {
  workspace: string;
  entry: EntryView;
  onClose: () => void;
  onDone: (o: WriteOutcome) => void;
  onRefresh: () => void;
  /** "Narrow to…" on an over-broad rule opens the dialog with that suggestion picked. */
  initialTo?: string;
}) {
  const [to, setTo] = useState(initialTo ?? (isPlist(entry) ? "" : entry.rule));
  const suggestions = useQuery(narrowSuggestionsQuery(workspace, entry.id));
  const check = useNarrowCheck(workspace, entry, to);
  const save = useMutation({
    mutationFn: () => unwrap(narrowEntry({ workspace, id: entry.id, version: entry.store.version, to: to.trim() })),
    onSuccess: ({ result: r }) =>
      onDone({
        message: `Narrowed in ${r.store}, line ${r.after.line}: ${r.after.text.trim()}`,
        warning: r.scopeWarning
          ? "This was a global entry: the change affects every project that uses this file."
          : undefined,
      }),
  });
  const stale = save.error instanceof ApiError && (save.error.kind === "changed-on-disk" || save.error.status === 404);
  const canSave = check.state === "proved" && check.to === to.trim() && !save.isPending;

  return (
    <Dialog
      title="Narrow entry"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          {stale ? (
            <Button variant="primary" onClick={onRefresh}>
              Refresh
            </Button>
          ) : (
            <Button
              variant="primary"
              onClick={() => save.mutate()}
              disabled={!canSave}
              busy={save.isPending}
              busyLabel="Saving…"
            >
              Save
            </Button>
          )}
        </>
      }
    >
      {entry.scope === "global" ? (
        <p className="warning" role="note">
          <strong>Global entry:</strong> narrowing it changes what every project on this machine allows.
        </p>
      ) : null}
      <div>
        <div className={styles.hint}>
          Now ({entry.action}) in <code className={styles.wrap}>{revealDeep(entry.store.path).value}</code>
        </div>
        <pre className={styles.lineBox}>{revealDeep(entry.rule).value}</pre>
        <HiddenTextWarning hidden={revealDeep(entry).hidden} />
      </div>
      <div>
        <div className={styles.hint}>Suggestions</div>
        {!suggestions.data ? (
          <span className="muted">Looking for narrower entries…</span>
        ) : suggestions.data.length === 0 ? (
          <span className="muted">No suggestions for this entry; type one below.</span>
        ) : (
          <ul className={styles.chips} aria-label="Suggestions">
            {suggestions.data.map((s) => (
              <li key={s}>
                <button type="button" className={styles.chip} onClick={() => setTo(s)} aria-pressed={to === s}>
                  {revealDeep(s).value}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className={`field ${styles.shrink}`}>
        <label htmlFor="narrow-to">Narrower entry</label>
        <input
          id="narrow-to"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          className="mono"
          placeholder={
            isPlist(entry) ? 'ask · exact · read · pattern:"git log *" · network:off' : "Shell(git status:*) or ask"
          }
        />
        <span className={styles.hint}>
          {isPlist(entry)
            ? "A new action, a modifier (exact, read, pattern:…, path:…, network:off, drop-fs:P) or a whole (…) form."
            : "The new rule text, or a stricter action: ask or deny."}
        </span>
      </div>
      <p aria-live="polite" data-testid="narrow-check" className={styles.flush}>
        {check.state === "checking" ? <span className="muted">Checking…</span> : null}
        {check.state === "proved" ? (
          <span className={styles.proved}>
            <Icon name="check" size={16} /> narrower
          </span>
        ) : null}
        {check.state === "refused" ? <span className={styles.refused}>{check.reason}</span> : null}
        {check.state === "idle" ? <span className="muted">Edit the entry or pick a suggestion.</span> : null}
      </p>
      {check.state === "proved" && check.to === to.trim() ? (
        <ImpactPreview workspace={workspace} entry={entry} to={check.to} />
      ) : null}
      {save.error ? <Alert>{stale ? "The file changed on disk — refresh" : save.error.message}</Alert> : null}
    </Dialog>
  );
}
