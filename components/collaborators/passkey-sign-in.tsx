"use client";
import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { signInWithPasskey, unwrap } from "@/lib/client/api";
import { takeNext } from "@/lib/client/next-after-sign-in";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/**
 * "Sign in with a passkey": a phone that joined once signs in again without a new link, and comes back to the
 * page it was on (`next`, or the page given).
 */
export function PasskeySignIn({ next }: { next?: string }) {
  const params = useSearchParams();
  const signIn = useMutation({
    mutationFn: () => unwrap(signInWithPasskey()),
    onSuccess: () => window.location.replace(takeNext(next ?? params.get("next"))),
  });
  return (
    <div className="stack">
      <Button
        variant="primary"
        onClick={() => signIn.mutate()}
        busy={signIn.isPending}
        busyLabel="Waiting for your passkey…"
      >
        Sign in with a passkey
      </Button>
      {signIn.error ? <Alert>{signIn.error.message}</Alert> : null}
    </div>
  );
}
