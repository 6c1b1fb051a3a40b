"use client";
import { useMutation } from "@tanstack/react-query";
import { ApiError, revokeEntry, unwrap, type EntryView } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { revealDeep } from "@/lib/text/reveal";
import { ImpactPreview } from "./impact-preview";
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
  const session = entry.scope === "session";
  // What the person reads comes from the file: hidden characters shown as ⟨U+…⟩, with the cards' warning.
  const { value: shown, hidden } = revealDeep(entry);
  const file = session ? "the cockpit database (session entries)" : shown.store.path;
  const revoke = useMutation({
    mutationFn: () => unwrap(revokeEntry({ workspace, id: entry.id, version: entry.store.version })),
    onSuccess: ({ result: r }) =>
      onDone({
        message: session ? `Revoked the session entry ${entry.rule}.` : `Revoked line ${r.before.line} of ${r.store}.`,
        warning: r.scopeWarning
          ? "This was a global entry: the change affects every project that uses this file."
          : undefined,
      }),
  });
  const stale =
    revoke.error instanceof ApiError && (revoke.error.kind === "changed-on-disk" || revoke.error.status === 404);

  return (
    <Dialog
      title="Revoke entry"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          {stale ? (
            <Button variant="primary" onClick={onRefresh}>
              Refresh
            </Button>
          ) : (
            <Button variant="danger" onClick={() => revoke.mutate()} busy={revoke.isPending} busyLabel="Revoking…">
              Revoke
            </Button>
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
      <p className={styles.flush}>
        This removes the entry from <code className={styles.wrap}>{file}</code>
        {entry.line > 0 ? `, line ${entry.line}` : ""}. Nothing else in the file changes.
      </p>
      <div>
        <div className={styles.hint}>
          {entry.lineText !== undefined ? "Line that will be removed" : "Entry that will be removed"}
        </div>
        <pre className={styles.lineBox} data-testid="revoke-line">
          {shown.lineText ?? shown.rule}
        </pre>
        <HiddenTextWarning hidden={hidden} />
      </div>
      <ImpactPreview workspace={workspace} entry={entry} />
      {revoke.error ? <Alert>{stale ? "The file changed on disk — refresh" : revoke.error.message}</Alert> : null}
    </Dialog>
  );
}
