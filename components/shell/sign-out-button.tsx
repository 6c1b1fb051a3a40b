"use client";
import { useMutation } from "@tanstack/react-query";
import { logout } from "@/lib/client/api";
import { Button } from "@/components/ui/button";

/** Ends this session and goes to the login page (whatever the server said: the cookie is gone either way). */
export function SignOutButton() {
  const signOut = useMutation({
    mutationFn: () => logout(),
    onSettled: () => window.location.assign("/login?signedOut=1"),
  });
  return (
    <Button className="signout" onClick={() => signOut.mutate()} busy={signOut.isPending}>
      Sign out
    </Button>
  );
}
