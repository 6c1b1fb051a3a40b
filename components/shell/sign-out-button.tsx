"use client";
import { useState } from "react";
import { logout } from "@/lib/client/api";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      className="signout"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await logout();
        window.location.assign("/login?signedOut=1");
      }}
    >
      Sign out
    </button>
  );
}
