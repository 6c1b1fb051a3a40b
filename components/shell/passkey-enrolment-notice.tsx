"use client";
import { useEffect, useState } from "react";
import { removePasskey } from "@/lib/client/api";
import type { PasskeyEnrolmentNotice as Notice } from "@/lib/auth/passkeys";

const DISMISSED = "cockpit.passkey-notices.dismissed";
const SIGN_IN: Record<string, string> = {
  link: "a login link minted with the CLI",
  pair: "a phone-pairing link",
  invite: "an invite",
  passkey: "a passkey",
};

function dismissedIds(): string[] {
  try {
    return JSON.parse(localStorage.getItem(DISMISSED) ?? "[]") as string[];
  } catch {
    return [];
  }
}

/**
 * A passkey registered in another of this person's sessions since this one began: anything that got hold of a
 * login link could enrol the person's first passkey, so every other session is told and may remove it at once
 * (no passkey confirmation needed for this one removal, for a day). "It was me" hides it on this device.
 */
export function PasskeyEnrolmentNotice({ notices }: { notices: Notice[] }) {
  const [hidden, setHidden] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => setHidden(dismissedIds()), []);
  const shown = notices.filter((n) => !hidden.includes(n.id));
  if (shown.length === 0 && !message) return null;
  const hide = (id: string) => {
    const next = [...new Set([...dismissedIds(), id])];
    localStorage.setItem(DISMISSED, JSON.stringify(next));
    setHidden(next);
  };
  async function remove(n: Notice) {
    const res = await removePasskey(n.id);
    if (!res.ok) return setMessage(res.error);
    setMessage(`Removed the passkey "${n.name}". End the session that added it in Settings → Sessions.`);
    hide(n.id);
  }
  return (
    <div className="warning passkey-notice stack" role="alert" data-testid="passkey-enrolment-notice">
      {shown.map((n) => (
        <div key={n.id} className="row" style={{ gap: 8, flexWrap: "wrap", justifyContent: "space-between" }}>
          <span>
            A passkey <strong>“{n.name}”</strong> was added to your account at{" "}
            <time dateTime={n.registeredAt}>{new Date(n.registeredAt).toLocaleString()}</time>
            {n.device ? ` from ${n.device}` : ""}
            {n.signIn && SIGN_IN[n.signIn] ? `, in a session opened with ${SIGN_IN[n.signIn]}` : ""}.
          </span>
          <span className="row" style={{ gap: 6 }}>
            <button className="button danger" type="button" onClick={() => void remove(n)}>
              Not me — remove it
            </button>
            <button className="button" type="button" onClick={() => hide(n.id)}>
              It was me
            </button>
          </span>
        </div>
      ))}
      {message ? <p role="status">{message}</p> : null}
    </div>
  );
}
