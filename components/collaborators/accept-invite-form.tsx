"use client";
import { useState } from "react";
import { acceptInvite } from "@/lib/client/api";

/** Takes a display name and accepts the invite; the session cookie is set for this device. */
export function AcceptInviteForm({ token }: { token: string }) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const res = await acceptInvite(token, name);
    if (res.ok) {
      window.history.replaceState(null, "", "/invite");
      window.location.replace("/settings?welcome=1");
      return;
    }
    setBusy(false);
    setError(res.error);
  }
  return (
    <form className="card stack" onSubmit={submit}>
      <h2 style={{ marginTop: 0 }}>You are invited</h2>
      <p className="muted" style={{ margin: 0 }}>
        Choose the name others will see on your answers. You are signed in on this device; afterwards you can add a
        passkey in Settings.
      </p>
      <label className="stack" style={{ gap: 4 }}>
        Display name
        <input
          name="name"
          required
          maxLength={100}
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <button className="button primary" type="submit" disabled={busy || !name.trim()}>
        {busy ? "Joining…" : "Join"}
      </button>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
