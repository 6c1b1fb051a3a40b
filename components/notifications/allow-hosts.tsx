"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { setAllowHosts, unwrap } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import styles from "./notifications.module.css";

/** Private hosts webhooks may reach (a self-hosted ntfy on the LAN, say); exact host names only. */
export function AllowHosts({ initial, envHosts }: { initial: string[]; envHosts: string[] }) {
  const [hosts, setHosts] = useState(initial);
  const [draft, setDraft] = useState("");
  const save = useMutation({
    mutationFn: (next: string[]) => unwrap(setAllowHosts(next)),
    onSuccess: (saved) => {
      setHosts(saved.hosts);
      setDraft("");
    },
  });

  return (
    <div className="stack">
      <form
        className={`row ${styles.bottom}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.trim()) save.mutate([...hosts, draft.trim()]);
        }}
        aria-label="Allow a private host"
      >
        <div className="field">
          <label htmlFor="allow-host">Host</label>
          <input
            id="allow-host"
            placeholder="ntfy.lan or 192.168.1.20"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <Button type="submit" disabled={!draft.trim()} busy={save.isPending}>
          Allow host
        </Button>
      </form>
      {save.error ? <Alert>{save.error.message}</Alert> : null}
      <ul className={`row ${styles.hosts}`} aria-label="Allowed private hosts">
        {hosts.map((h) => (
          <li key={h} className={`row ${styles.host}`}>
            <span className="tag mono">{h}</span>
            <Button
              onClick={() => save.mutate(hosts.filter((x) => x !== h))}
              disabled={save.isPending}
              aria-label={`Remove ${h}`}
            >
              <Icon name="x" />
            </Button>
          </li>
        ))}
        {envHosts.map((h) => (
          <li key={`env-${h}`}>
            <span className="tag mono" title="from COCKPIT_WEBHOOK_ALLOW_HOSTS">
              {h} (env)
            </span>
          </li>
        ))}
        {hosts.length + envHosts.length === 0 ? (
          <li className="muted">None: private, loopback and link-local addresses are refused.</li>
        ) : null}
      </ul>
    </div>
  );
}
