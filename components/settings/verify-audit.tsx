"use client";
import { useState } from "react";
import { verifyAuditLog } from "@/lib/client/api";

/** Recomputes the audit chain on the server and shows its one-line verdict. */
export function VerifyAudit() {
  const [result, setResult] = useState<{ intact: boolean; line: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function verify() {
    setBusy(true);
    setError(null);
    setResult(null);
    const res = await verifyAuditLog();
    setBusy(false);
    if (!res.ok) return setError(res.error);
    setResult(res.data);
  }

  return (
    <div className="stack">
      <p className="muted" style={{ margin: 0 }}>
        Recomputes every event&apos;s hash and checks every signed checkpoint. Also from a terminal:{" "}
        <code>npx cockpit audit verify</code>.
      </p>
      <div className="row">
        <button type="button" className="button" disabled={busy} onClick={() => void verify()}>
          {busy ? "Verifying…" : "Verify audit log"}
        </button>
      </div>
      {result && (
        <p role="status" data-testid="audit-verify-result" style={{ margin: 0 }}>
          {result.intact ? "✓ " : "✗ "}
          <strong>{result.line}</strong>
        </p>
      )}
      {error && (
        <p role="alert" className="error" style={{ margin: 0 }}>
          {error}
        </p>
      )}
    </div>
  );
}
