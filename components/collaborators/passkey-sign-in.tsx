"use client";
import { useState } from "react";
import { signInWithPasskey } from "@/lib/client/api";

/** "Sign in with a passkey": a phone that joined once signs in again without a new link. */
export function PasskeySignIn() {
  const [error, setError] = useState<string | null>(null);
  async function signIn() {
    setError(null);
    const done = await signInWithPasskey();
    if (!done.ok) return setError(done.error);
    window.location.replace("/");
  }
  return (
    <div className="stack" style={{ gap: 4 }}>
      <button className="button primary" type="button" onClick={() => void signIn()}>
        Sign in with a passkey
      </button>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
