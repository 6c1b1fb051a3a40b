"use client";
import { useMutation } from "@tanstack/react-query";
import { unwrap, verifyAuditLog } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import styles from "./settings.module.css";

/** Recomputes the audit chain on the server and shows its one-line verdict. */
export function VerifyAudit() {
  const verify = useMutation({ mutationFn: () => unwrap(verifyAuditLog()) });
  return (
    <div className="stack">
      <p className={`muted ${styles.flush}`}>
        Recomputes every event&apos;s hash and checks every signed checkpoint. Also from a terminal:{" "}
        <code>npx cockpit audit verify</code>.
      </p>
      <div className="row">
        <Button onClick={() => verify.mutate()} busy={verify.isPending} busyLabel="Verifying…">
          Verify audit log
        </Button>
      </div>
      {verify.data ? (
        <p role="status" data-testid="audit-verify-result" className={styles.verdict}>
          <Icon name={verify.data.intact ? "check" : "x"} label={verify.data.intact ? "intact" : "broken"} />
          <strong>{verify.data.line}</strong>
        </p>
      ) : null}
      {verify.error ? <Alert>{verify.error.message}</Alert> : null}
    </div>
  );
}
