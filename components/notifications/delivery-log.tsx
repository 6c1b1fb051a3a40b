"use client";
import { useCallback, useEffect, useState } from "react";
import { redeliver as requestRedelivery, webhookDeliveries, type DeliveryLogEntry as Delivery } from "@/lib/client/api";

const time = (iso: string) => new Date(iso).toLocaleString();
const statusTag = (status: string) => (status === "delivered" ? "tag ok" : status === "failed" ? "tag bad" : "tag");

/** The newest deliveries of one endpoint, every attempt, and a Redeliver button. */
export function DeliveryLog({ endpointId, refreshKey }: { endpointId: string; refreshKey: number }) {
  const [items, setItems] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const res = await webhookDeliveries(endpointId);
    if (!res.ok) return setError(res.error);
    setError(null);
    setItems(res.data.deliveries);
  }, [endpointId]);

  useEffect(() => {
    void load();
  }, [load, refreshKey]);

  async function redeliver(id: string) {
    const res = await requestRedelivery(endpointId, id);
    if (!res.ok) return setError(res.error);
    setTimeout(() => void load(), 1200);
  }

  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!items) return <p className="muted">Loading the delivery log…</p>;
  if (items.length === 0) return <p className="muted">Nothing sent yet.</p>;
  return (
    <div className="stack" aria-label="Delivery log">
      <div className="row" style={{ justifyContent: "flex-end" }}>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {items.map((d) => (
          <li
            key={d.id}
            className="card"
            style={{ marginBottom: 0, background: "var(--surface-2)" }}
            data-testid="delivery"
          >
            <div className="row" style={{ justifyContent: "space-between" }}>
              <div className="row">
                <span className={statusTag(d.status)}>{d.status}</span>
                <strong>{d.eventType}</strong>
                {d.cardId ? <a href={`/cards/${d.cardId}`}>open card</a> : null}
              </div>
              {d.cardId && d.status !== "skipped" ? (
                <button
                  type="button"
                  onClick={() => void redeliver(d.id)}
                  aria-label={`Redeliver ${d.eventType} ${d.msgId}`}
                >
                  Redeliver
                </button>
              ) : null}
            </div>
            <div className="muted mono" style={{ fontSize: "0.8rem", overflowWrap: "anywhere" }}>
              {d.msgId} · {time(d.createdAt)}
              {d.nextAttemptAt ? ` · next attempt ${time(d.nextAttemptAt)}` : ""}
            </div>
            {d.status === "skipped" && d.lastError ? <div className="muted">{d.lastError}</div> : null}
            {d.log.length > 0 ? (
              <ol
                className="stack"
                style={{ margin: "0.5rem 0 0", paddingLeft: "1.25rem", gap: "0.25rem" }}
                aria-label="Attempts"
              >
                {d.log.map((a, i) => (
                  <li key={i} data-testid="attempt">
                    <span className="mono">{a.statusCode ?? "no answer"}</span> · {a.latencyMs} ms · {time(a.at)}
                    {a.error ? <span className="muted"> · {a.error}</span> : null}
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
