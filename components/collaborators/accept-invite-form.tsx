"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { acceptInvite, unwrap } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import styles from "./settings.module.css";

/** Takes a display name and accepts the invite; the session cookie is set for this device. */
export function AcceptInviteForm({ token }: { token: string }) {
  const [name, setName] = useState("");
  const accept = useMutation({
    mutationFn: () => unwrap(acceptInvite(token, name)),
    onSuccess: () => {
      window.history.replaceState(null, "", "/invite");
      window.location.replace("/settings?welcome=1");
    },
  });
  return (
    <form
      className="card stack"
      onSubmit={(e) => {
        e.preventDefault();
        accept.mutate();
      }}
    >
      <h2 className={styles.inviteTitle}>You are invited</h2>
      <p className={`muted ${styles.inviteNote}`}>
        Choose the name others will see on your answers. You are signed in on this device; afterwards you can add a
        passkey in Settings.
      </p>
      <label className={`stack ${styles.inviteName}`}>
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
      <Button
        variant="primary"
        type="submit"
        disabled={!name.trim() || accept.isSuccess}
        busy={accept.isPending}
        busyLabel="Joining…"
      >
        Join
      </Button>
      {accept.error ? <Alert>{accept.error.message}</Alert> : null}
    </form>
  );
}
