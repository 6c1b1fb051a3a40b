"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { setWorkspaceSettings, unwrap } from "@/lib/client/api";
import { Section } from "@/components/ui/section";
import { StepUpRetry } from "./step-up-retry";
import styles from "./settings.module.css";

type Row = { id: string; name: string; requirePasskey: boolean };

/** Per-workspace "approvals need a passkey" switches (admin of each workspace). */
export function PasskeyWorkspaces({ initial }: { initial: Row[] }) {
  const [rows, setRows] = useState(initial);
  const toggle = useMutation({
    mutationFn: (v: { id: string; requirePasskey: boolean }) =>
      unwrap(setWorkspaceSettings(v.id, { requirePasskey: v.requirePasskey })),
    onSuccess: (_r, v) =>
      setRows((all) => all.map((w) => (w.id === v.id ? { ...w, requirePasskey: v.requirePasskey } : w))),
  });
  if (rows.length === 0) return null;
  return (
    <Section
      title="Approvals need a passkey"
      intro="When on, an answer counts only with the approver's passkey over exactly that card, outcome and scope. The CLI, agent tokens and notification buttons cannot answer there; notifications open the card instead."
    >
      <div className={styles.list}>
        {rows.map((w) => (
          <label key={w.id} className={`row ${styles.check}`}>
            <input
              type="checkbox"
              checked={w.requirePasskey}
              disabled={toggle.isPending}
              onChange={(e) => toggle.mutate({ id: w.id, requirePasskey: e.target.checked })}
            />
            {w.name}
          </label>
        ))}
      </div>
      {toggle.error ? <StepUpRetry error={toggle.error} onRetry={() => toggle.mutate(toggle.variables!)} /> : null}
    </Section>
  );
}
