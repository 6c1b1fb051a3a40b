"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { redeliver as requestRedelivery, unwrap } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { deliveriesQuery } from "./queries";
import styles from "./notifications.module.css";

const statusTag = (status: string) => (status === "delivered" ? "tag ok" : status === "failed" ? "tag bad" : "tag");

/** The newest deliveries of one endpoint, every attempt, and a Redeliver button. */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const client = useQueryClient();
  const log = useQuery(deliveriesQuery(endpointId));
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => unwrap(requestRedelivery(endpointId, deliveryId)),
    // The redelivery is queued, not sent yet: the log is read again once it had time to go out.
    onSuccess: () =>
      setTimeout(() => void client.invalidateQueries({ queryKey: deliveriesQuery(endpointId).queryKey }), 1200),
  });

  if (log.error) return <Alert>{log.error.message}</Alert>;
  if (!log.data) return <p className="muted">Loading the delivery log…</p>;
  if (log.data.length === 0) return <p className="muted">Nothing sent yet.</p>;
  return (
    <div className="stack" aria-label="Delivery log">
      <div className={`row ${styles.end}`}>
        <Button busy={log.isFetching} busyLabel="Refreshing…" onClick={() => void log.refetch()}>
          Refresh
        </Button>
      </div>
      {redeliver.error ? <Alert>{redeliver.error.message}</Alert> : null}
      <ul className={styles.list}>
        {log.data.map((d) => (
          <li key={d.id} className={`card ${styles.delivery}`} data-testid="delivery">
            <div className={`row ${styles.between}`}>
              <div className="row">
                <span className={statusTag(d.status)}>{d.status}</span>
                <strong>{d.eventType}</strong>
                {d.cardId ? <a href={`/cards/${d.cardId}`}>open card</a> : null}
              </div>
              {d.cardId && d.status !== "skipped" ? (
                <Button
                  busy={redeliver.isPending && redeliver.variables === d.id}
                  onClick={() => redeliver.mutate(d.id)}
                  aria-label={`Redeliver ${d.eventType} ${d.msgId}`}
                >
                  Redeliver
                </Button>
              ) : null}
            </div>
            <div className={`muted mono ${styles.meta}`}>
              {d.msgId} · <Time iso={d.createdAt} />
              {d.nextAttemptAt ? <Time iso={d.nextAttemptAt} prefix=" · next attempt " /> : null}
            </div>
            {d.status === "skipped" && d.lastError ? <div className="muted">{d.lastError}</div> : null}
            {d.log.length > 0 ? (
              <ol className={`stack ${styles.attempts}`} aria-label="Attempts">
                {d.log.map((a, i) => (
                  <li key={i} data-testid="attempt">
                    <span className="mono">{a.statusCode ?? "no answer"}</span> · {a.latencyMs} ms · <Time iso={a.at} />
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
