"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createInvite, revokeInvite, unwrap, type InviteRow } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Section } from "@/components/ui/section";
import { Time } from "@/components/ui/time";
import { QrLink } from "./qr-link";
import { invitesQuery, settingsKeys } from "./queries";
import type { WorkspaceRef } from "./people-section";
import { StepUpRetry } from "./step-up-retry";
import styles from "./settings.module.css";

type Role = "viewer" | "approver" | "admin";

/** Settings → Invite someone (admins): a single-use link + QR code, and the invites still open, each revocable. */
export function InviteSection({
  workspaces,
  owner,
  initial,
}: {
  workspaces: WorkspaceRef[];
  owner: boolean;
  initial: InviteRow[];
}) {
  const client = useQueryClient();
  const open = useQuery({ ...invitesQuery(), initialData: initial });
  const [role, setRole] = useState<Role>("approver");
  const [scope, setScope] = useState<string>(owner ? "all" : (workspaces[0]?.id ?? ""));
  const [hours, setHours] = useState(72);
  const name = (id: string) => (id === "all" ? "all workspaces" : (workspaces.find((w) => w.id === id)?.name ?? id));
  const refresh = () => client.invalidateQueries({ queryKey: settingsKeys.invites });
  const create = useMutation({
    mutationFn: () =>
      unwrap(createInvite({ role, workspaces: scope === "all" ? "all" : [scope], expiresInHours: hours })),
    onSettled: refresh,
  });
  const revoke = useMutation({ mutationFn: (id: string) => unwrap(revokeInvite(id)), onSettled: refresh });
  return (
    <Section title="Invite someone" intro="A link that works once: open it on the person's phone, or send it.">
      <form
        className="stack"
        aria-label="Invite someone"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <div className="row">
          <label className={styles.inline}>
            Role{" "}
            <select name="role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
              <option value="viewer">viewer — sees cards, rules, audit</option>
              <option value="approver">approver — also answers cards</option>
              <option value="admin">admin — also edits rules, webhooks, tokens, people</option>
            </select>
          </label>
          <label className={styles.inline}>
            Workspace{" "}
            <select name="workspace" value={scope} onChange={(e) => setScope(e.target.value)}>
              {owner ? <option value="all">all workspaces</option> : null}
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.inline}>
            Expires in (hours){" "}
            <input
              type="number"
              min={1}
              max={168}
              value={hours}
              className={styles.hours}
              onChange={(e) => setHours(Number(e.target.value))}
            />
          </label>
          <Button variant="primary" type="submit" busy={create.isPending} busyLabel="Creating…">
            Create invite link
          </Button>
        </div>
        {create.error ? <StepUpRetry error={create.error} onRetry={() => create.mutate()} /> : null}
        {create.data ? (
          <div data-testid="invite-link">
            <p className="muted">
              Single use, until <Time iso={create.data.expiresAt} />. Scan it with the phone or send the link.
            </p>
            <QrLink url={create.data.url} label="Invite link" />
          </div>
        ) : null}
      </form>
      <h3 className={styles.subheading}>Open invites</h3>
      {revoke.error ? <Alert>{revoke.error.message}</Alert> : null}
      {open.data.length === 0 ? (
        <p className="muted" data-testid="no-open-invites">
          No open invites.
        </p>
      ) : (
        <ul className={styles.list} aria-label="Open invites">
          {open.data.map((i) => (
            <li key={i.id} className={`${styles.item} ${styles.split}`} data-testid="open-invite">
              <span>
                <strong>{i.role}</strong> in{" "}
                {i.workspaces === "all" ? "all workspaces" : i.workspaces.map(name).join(", ")}{" "}
                <span className="muted">
                  · by {i.createdBy} · expires <Time iso={i.expiresAt} />
                </span>
              </span>
              <Button
                busy={revoke.isPending && revoke.variables === i.id}
                onClick={() => revoke.mutate(i.id)}
                aria-label={`Revoke the ${i.role} invite`}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
