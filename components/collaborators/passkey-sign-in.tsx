"use client";
import { useState } from "react";
import { startAuthentication } from "@simplewebauthn/browser";
import { send } from "@/lib/client/fetch-json";

/** "Sign in with a passkey": a phone that joined once signs in again without a new link. */
export function PasskeySignIn() {
  const [error, setError] = useState<string | null>(null);
  async function signIn() {
    setError(null);
    try {
      const options = await send<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
        "/api/auth/passkey/options",
        "POST",
      );
      if (!options.ok) throw new Error(options.error);
      const response = await startAuthentication({ optionsJSON: options.data });
      const done = await send("/api/auth/passkey", "POST", { response });
      if (!done.ok) throw new Error(done.error);
      window.location.replace("/");
    } catch (e) {
      setError((e as Error).message);
    }
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
