"use client";
import { useState } from "react";
import { setWorkspaceSettings } from "@/lib/client/api";

/** Per-workspace "approvals need a passkey" switches (admin of each workspace). */
export function PasskeyWorkspaces({ initial }: { initial: { id: string; name: string; requirePasskey: boolean }[] }) {
  const [rows, setRows] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  async function toggle(id: string, requirePasskey: boolean) {
    setError(null);
    const res = await setWorkspaceSettings(id, { requirePasskey });
    if (!res.ok) return setError(res.error);
    setRows((all) => all.map((w) => (w.id === id ? { ...w, requirePasskey } : w)));
  }
  if (rows.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="passkey-ws-heading">
      <h2 id="passkey-ws-heading" style={{ marginTop: 0 }}>
        Approvals need a passkey
      </h2>
      <p className="muted" style={{ margin: 0 }}>
        When on, an answer counts only with the approver&apos;s passkey over exactly that card, outcome and scope. The
        CLI, agent tokens and notification buttons cannot answer there; notifications open the card instead.
      </p>
      {rows.map((w) => (
        <label key={w.id} className="row" style={{ gap: 8 }}>
          <input type="checkbox" checked={w.requirePasskey} onChange={(e) => void toggle(w.id, e.target.checked)} />
          {w.name}
        </label>
      ))}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
