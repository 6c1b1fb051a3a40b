"use client";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "next/navigation";
import { login } from "@/lib/client/api";

/** Redeems the `?token=` of a login link once, then opens the app. */
export function LoginForm() {
  const params = useSearchParams();
  const [state, setState] = useState<"idle" | "working" | "failed">("idle");
  const [message, setMessage] = useState<string | null>(null);
  const started = useRef(false);
  const token = params.get("token");

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    // Drop the token from the address bar and history before using it.
    window.history.replaceState(null, "", "/login");
    setState("working");
    void login(token).then((res) => {
      if (res.ok) return window.location.replace("/");
      setState("failed");
      if (res.status === 0) setMessage("The cockpit could not be reached.");
      else setMessage(res.body.error ?? `Sign-in failed (${res.status}).`);
    });
  }, [token]);

  if (state === "working") return <p role="status">Signing you in…</p>;
  if (state === "failed")
    return (
      <p className="error" role="alert">
        {message}
      </p>
    );
  if (params.get("signedOut"))
    return (
      <p className="notice" role="status">
        You are signed out.
      </p>
    );
  return <p className="muted">You need a login link to continue.</p>;
}
