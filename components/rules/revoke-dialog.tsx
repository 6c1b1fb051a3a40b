"use client";
import { useState } from "react";
import { revokeEntry, type EntryView } from "@/lib/client/api";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { revealDeep } from "@/lib/text/reveal";
import { ImpactPreview } from "./impact-preview";
import { Modal } from "./modal";
import styles from "./rules.module.css";
import type { WriteOutcome } from "./write-outcome";

/** Confirms a revoke naming the file and the exact line that goes; a stale listing is refused, not retried. */
export function RevokeDialog({
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; stale: boolean } | null>(null);
  const session = entry.scope === "session";
  // What the person reads comes from the file: hidden characters shown as ⟨U+…⟩, with the cards' warning.
  const { value: shown, hidden } = revealDeep(entry);
  const file = session ? "the cockpit database (session entries)" : shown.store.path;

  async function revoke() {
    setBusy(true);
    setError(null);
    const res = await revokeEntry({ workspace, id: entry.id, version: entry.store.version });
    setBusy(false);
    if (!res.ok)
      return setError({
        message: res.kind === "changed-on-disk" ? "The file changed on disk — refresh" : res.error,
        stale: res.kind === "changed-on-disk" || res.status === 404,
      });
    const r = res.data.result;
    onDone({
      message: session ? `Revoked the session entry ${entry.rule}.` : `Revoked line ${r.before.line} of ${r.store}.`,
      warning: r.scopeWarning
        ? "This was a global entry: the change affects every project that uses this file."
        : undefined,
    });
  }

  return (
    <Modal
      title="Revoke entry"
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
            <button type="button" className="danger" onClick={revoke} disabled={busy}>
              {busy ? "Revoking…" : "Revoke"}
            </button>
          )}
        </>
      }
    >
      {entry.scope === "global" ? (
        <p className="warning" role="note">
          <strong>Global entry:</strong> this file is read by every project on this machine. Revoking it affects every
          project, not only this workspace.
        </p>
      ) : null}
      <p style={{ margin: 0 }}>
        This removes the entry from <code style={{ overflowWrap: "anywhere" }}>{file}</code>
        {entry.line > 0 ? `, line ${entry.line}` : ""}. Nothing else in the file changes.
      </p>
      <div>
        <div className="muted" style={{ fontSize: "0.85rem" }}>
          {entry.lineText !== undefined ? "Line that will be removed" : "Entry that will be removed"}
        </div>
        <pre className={styles.lineBox} data-testid="revoke-line">
          {shown.lineText ?? shown.rule}
        </pre>
        <HiddenTextWarning hidden={hidden} />
      </div>
      <ImpactPreview workspace={workspace} entry={entry} />
      {error ? (
        <p className="error" role="alert">
          {error.message}
        </p>
      ) : null}
    </Modal>
  );
}
