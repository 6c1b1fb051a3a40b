"use client";
import { useEffect, useState } from "react";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { revealDeep } from "@/lib/text/reveal";
import { checkNarrowing, narrowEntry, narrowingSuggestions, type EntryView } from "@/lib/client/api";
import { ImpactPreview } from "./impact-preview";
import { Modal } from "./modal";
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
}: {
  workspace: string;
  entry: EntryView;
  onClose: () => void;
  onDone: (o: WriteOutcome) => void;
  onRefresh: () => void;
}) {
  const [to, setTo] = useState(isPlist(entry) ? "" : entry.rule);
  const [suggestions, setSuggestions] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; stale: boolean } | null>(null);
  const check = useNarrowCheck(workspace, entry, to);
  const canSave = check.state === "proved" && check.to === to.trim() && !busy;

  useEffect(() => {
    void narrowingSuggestions(workspace, entry.id).then((res) => setSuggestions(res.ok ? res.data.suggestions : []));
  }, [workspace, entry.id]);

  async function save() {
    setBusy(true);
    setError(null);
    const res = await narrowEntry({ workspace, id: entry.id, version: entry.store.version, to: to.trim() });
    setBusy(false);
    if (!res.ok)
      return setError({
        message: res.kind === "changed-on-disk" ? "The file changed on disk — refresh" : res.error,
        stale: res.kind === "changed-on-disk" || res.status === 404,
      });
    const r = res.data.result;
    onDone({
      message: `Narrowed in ${r.store}, line ${r.after.line}: ${r.after.text.trim()}`,
      warning: r.scopeWarning
        ? "This was a global entry: the change affects every project that uses this file."
        : undefined,
    });
  }

  return (
    <Modal
      title="Narrow entry"
      onClose={onClose}
      footer={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          {error?.stale ? (
            <button type="button" className="primary" onClick={onRefresh}>
              Refresh
            </button>
          ) : (
            <button type="button" className="primary" onClick={save} disabled={!canSave}>
              {busy ? "Saving…" : "Save"}
            </button>
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
        <div className="muted" style={{ fontSize: "0.85rem" }}>
          Now ({entry.action}) in <code style={{ overflowWrap: "anywhere" }}>{revealDeep(entry.store.path).value}</code>
        </div>
        <pre className={styles.lineBox}>{revealDeep(entry.rule).value}</pre>
        <HiddenTextWarning hidden={revealDeep(entry).hidden} />
      </div>
      <div>
        <div className="muted" style={{ fontSize: "0.85rem", marginBottom: "0.3rem" }}>
          Suggestions
        </div>
        {suggestions === null ? (
          <span className="muted">Looking for narrower entries…</span>
        ) : suggestions.length === 0 ? (
          <span className="muted">No suggestions for this entry; type one below.</span>
        ) : (
          <div className={styles.chips} role="list" aria-label="Suggestions">
            {suggestions.map((s) => (
              <button
                key={s}
                type="button"
                role="listitem"
                className={styles.chip}
                onClick={() => setTo(s)}
                aria-pressed={to === s}
              >
                {revealDeep(s).value}
              </button>
            ))}
          </div>
        )}
      </div>
      <div className="field" style={{ minWidth: 0 }}>
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
        <span className="muted" style={{ fontSize: "0.85rem" }}>
          {isPlist(entry)
            ? "A new action, a modifier (exact, read, pattern:…, path:…, network:off, drop-fs:P) or a whole (…) form."
            : "The new rule text, or a stricter action: ask or deny."}
        </span>
      </div>
      <p aria-live="polite" data-testid="narrow-check" style={{ margin: 0 }}>
        {check.state === "checking" ? <span className="muted">Checking…</span> : null}
        {check.state === "proved" ? <span className={styles.proved}>narrower ✓</span> : null}
        {check.state === "refused" ? <span className={styles.refused}>{check.reason}</span> : null}
        {check.state === "idle" ? <span className="muted">Edit the entry or pick a suggestion.</span> : null}
      </p>
      {check.state === "proved" && check.to === to.trim() ? (
        <ImpactPreview workspace={workspace} entry={entry} to={check.to} />
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error.message}
        </p>
      ) : null}
    </Modal>
  );
}
