"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EndpointForm } from "./endpoint-form";
import { EndpointItem } from "./endpoint-item";
import type { EndpointItem as Endpoint, WorkspaceOption } from "./types";
import styles from "./notifications.module.css";

/** Webhook endpoints: add (secret shown once), list, test, log, enable/disable, delete. */
export function NotificationsManager({ initial, workspaces }: { initial: Endpoint[]; workspaces: WorkspaceOption[] }) {
  const [items, setItems] = useState(initial);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  return (
    <div className="stack">
      <EndpointForm
        workspaces={workspaces}
        onCreated={(endpoint, s) => {
          setItems((list) => [...list, endpoint]);
          setSecret({ url: endpoint.url, secret: s });
        }}
      />
      {secret ? (
        <div className="notice" role="status" data-testid="new-secret">
          <div>
            Added <span className="mono">{secret.url}</span>. Its signing secret is shown only now; the receiver uses it
            to verify the <code>webhook-signature</code> header:
          </div>
          <pre className={`mono ${styles.secret}`}>{secret.secret}</pre>
          <Button onClick={() => setSecret(null)}>I saved it</Button>
        </div>
      ) : null}
      {items.length === 0 ? (
        <p className="muted">No endpoints yet.</p>
      ) : (
        <ul className={styles.list} aria-label="Endpoints">
          {items.map((e) => (
            <EndpointItem
              key={e.id}
              endpoint={e}
              onChange={(next) => setItems((list) => list.map((x) => (x.id === next.id ? next : x)))}
              onDelete={(id) => setItems((list) => list.filter((x) => x.id !== id))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
