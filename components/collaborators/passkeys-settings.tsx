"use client";
import { useState } from "react";
import {
  addPasskey,
  confirmWithPasskey,
  fetchPasskeys,
  removePasskey,
  renamePasskey,
  type PasskeyRow,
} from "@/lib/client/api";

export type { PasskeyRow };

/** Settings → Passkeys: add several, rename, remove; "Confirm with passkey" for the step-up that sensitive changes need. */
export function PasskeysSettings({ initial }: { initial: PasskeyRow[] }) {
  const [keys, setKeys] = useState(initial);
  const [message, setMessage] = useState<{ tone: "error" | "notice"; text: string } | null>(null);
  const reload = async () => {
    const res = await fetchPasskeys();
    if (res.ok) setKeys(res.data.passkeys);
  };
  async function add(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setMessage(null);
    // Read the field at submit time (uncontrolled): text typed before hydration is kept.
    const field = e.currentTarget.elements.namedItem("passkeyName") as HTMLInputElement;
    const name = field.value;
    const saved = await addPasskey(name.trim() || "passkey");
    if (!saved.ok) return setMessage({ tone: "error", text: saved.error });
    field.value = "";
    setMessage({ tone: "notice", text: "Passkey added." });
    await reload();
  }
  async function confirm() {
    setMessage(null);
    const done = await confirmWithPasskey();
    if (!done.ok) return setMessage({ tone: "error", text: done.error });
    setMessage({
      tone: "notice",
      text: "Confirmed for 5 minutes: you can change roles, webhooks and tool-wide rules.",
    });
  }
  async function rename(k: PasskeyRow) {
    const next = window.prompt("Name this passkey", k.name);
    if (!next) return;
    const res = await renamePasskey(k.id, next);
    if (!res.ok) setMessage({ tone: "error", text: res.error });
    await reload();
  }
  async function remove(k: PasskeyRow) {
    if (!window.confirm(`Remove the passkey "${k.name}"?`)) return;
    const res = await removePasskey(k.id);
    if (!res.ok) setMessage({ tone: "error", text: res.error });
    await reload();
  }
  return (
    <section className="card stack" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" style={{ marginTop: 0 }}>
        Passkeys
      </h2>
      <p className="muted" style={{ margin: 0 }}>
        Sign in on this device again without a link, and confirm answers in workspaces that require a passkey.
      </p>
      <ul style={{ listStyle: "none", padding: 0, margin: 0 }} className="stack" aria-label="Passkeys">
        {keys.map((k) => (
          <li key={k.id} className="row" style={{ gap: 8, justifyContent: "space-between" }}>
            <span>
              <strong>{k.name}</strong>{" "}
              <span className="muted">
                added {new Date(k.createdAt).toLocaleDateString()}
                {k.lastUsedAt ? ` · used ${new Date(k.lastUsedAt).toLocaleString()}` : ""}
              </span>
            </span>
            <span className="row" style={{ gap: 4 }}>
              <button className="button" type="button" onClick={() => void rename(k)}>
                Rename
              </button>
              <button className="button" type="button" onClick={() => void remove(k)}>
                Remove
              </button>
            </span>
          </li>
        ))}
      </ul>
      <form className="row" style={{ gap: 8, flexWrap: "wrap" }} onSubmit={add}>
        <input aria-label="Passkey name" placeholder="e.g. my phone" name="passkeyName" maxLength={100} />
        <button className="button primary" type="submit">
          Add a passkey
        </button>
        {keys.length > 0 ? (
          <button className="button" type="button" onClick={() => void confirm()}>
            Confirm with passkey
          </button>
        ) : null}
      </form>
      {message ? (
        <p className={message.tone} role={message.tone === "error" ? "alert" : "status"}>
          {message.text}
        </p>
      ) : null}
    </section>
  );
}
