"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  addPasskey,
  confirmWithPasskey,
  removePasskey,
  renamePasskey,
  unwrap,
  type PasskeyRow,
} from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import { Time } from "@/components/ui/time";
import { passkeysQuery, settingsKeys } from "./queries";
import styles from "./settings.module.css";

export type { PasskeyRow };

/** Settings → Passkeys: add several, rename, remove; "Confirm with passkey" for the step-up that sensitive changes need. */
export function PasskeysSettings({ initial }: { initial: PasskeyRow[] }) {
  const client = useQueryClient();
  const keys = useQuery({ ...passkeysQuery(), initialData: initial });
  const refresh = () => client.invalidateQueries({ queryKey: settingsKeys.passkeys });
  const add = useMutation({
    mutationFn: (name: string) => unwrap(addPasskey(name.trim() || "passkey")),
    onSettled: refresh,
  });
  const confirm = useMutation({ mutationFn: () => unwrap(confirmWithPasskey()) });
  const rename = useMutation({
    mutationFn: ({ k, name }: { k: PasskeyRow; name: string }) => unwrap(renamePasskey(k.id, name)),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (k: PasskeyRow) => unwrap(removePasskey(k.id)), onSettled: refresh });
  const error = add.error ?? confirm.error ?? rename.error ?? remove.error;
  return (
    <Section
      title="Passkeys"
      intro="Sign in on this device again without a link, and confirm answers in workspaces that require a passkey."
    >
      <ul className={styles.list} aria-label="Passkeys">
        {keys.data.map((k) => (
          <li key={k.id} className={`${styles.item} ${styles.split}`}>
            <span>
              <strong>{k.name}</strong>{" "}
              <span className="muted">
                added <Time iso={k.createdAt} />
                {k.lastUsedAt ? (
                  <>
                    {" · used "}
                    <Time iso={k.lastUsedAt} />
                  </>
                ) : null}
              </span>
            </span>
            <span className="row">
              <Button
                onClick={() => {
                  const name = window.prompt("Name this passkey", k.name);
                  if (name) rename.mutate({ k, name });
                }}
              >
                Rename
              </Button>
              <Button
                busy={remove.isPending && remove.variables?.id === k.id}
                onClick={() => {
                  if (window.confirm(`Remove the passkey "${k.name}"?`)) remove.mutate(k);
                }}
              >
                Remove
              </Button>
            </span>
          </li>
        ))}
      </ul>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          // Read the field at submit time (uncontrolled): text typed before hydration is kept.
          const field = e.currentTarget.elements.namedItem("passkeyName") as HTMLInputElement;
          add.mutate(field.value, { onSuccess: () => (field.value = "") });
        }}
      >
        <input aria-label="Passkey name" placeholder="e.g. my phone" name="passkeyName" maxLength={100} />
        <Button variant="primary" type="submit" busy={add.isPending} busyLabel="Waiting for your passkey…">
          Add a passkey
        </Button>
        {keys.data.length > 0 ? (
          <Button onClick={() => confirm.mutate()} busy={confirm.isPending}>
            Confirm with passkey
          </Button>
        ) : null}
      </form>
      {error ? <Alert>{error.message}</Alert> : null}
      {add.isSuccess ? <Notice>Passkey added.</Notice> : null}
      {confirm.isSuccess ? (
        <Notice>Confirmed for 5 minutes: you can change roles, webhooks and tool-wide rules.</Notice>
      ) : null}
    </Section>
  );
}
