"use client";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "next/navigation";
import { login } from "@/lib/client/api";
import { rememberNext, takeNext } from "@/lib/client/next-after-sign-in";
import { safeNextPath } from "@/lib/text/next-path";
import { Alert } from "@/components/ui/alert";
import { Notice } from "@/components/ui/notice";

/**
 * Redeems the `?token=` of a login link once, then opens the page the person came for (`next`, same-origin
 * only) or the landing page (Cards when anything waits).
 */
export function LoginForm() {
  const params = useSearchParams();
  const [state, setState] = useState<"idle" | "working" | "failed">("idle");
  const [message, setMessage] = useState<string | null>(null);
  const started = useRef(false);
  const token = params.get("token");
  // Same-origin paths only: anything else is ignored, never shown or followed.
  const next = safeNextPath(params.get("next"));

  useEffect(() => {
    if (next) rememberNext(next);
  }, [next]);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    // Drop the token from the address bar and history before using it.
    window.history.replaceState(null, "", "/login");
    setState("working");
    void login(token).then((res) => {
      if (res.ok) return window.location.replace(takeNext(next));
      setState("failed");
      setMessage(res.error);
    });
  }, [token, next]);

  if (state === "working") return <p role="status">Signing you in…</p>;
  if (state === "failed") return <Alert>{message}</Alert>;
  if (params.get("signedOut")) return <Notice>You are signed out.</Notice>;
  if (next)
    return (
      <p className="muted" data-testid="login-next">
        Sign in to continue to <code>{next}</code>.
      </p>
    );
  return <p className="muted">You need a login link or a passkey to continue.</p>;
}
