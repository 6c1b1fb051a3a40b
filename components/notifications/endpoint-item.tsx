"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { deleteWebhook, testWebhook, unwrap, updateWebhook } from "@/lib/client/api";
import { Button } from "@/components/ui/button";
import { StepUpRetry } from "@/components/collaborators/step-up-retry";
import { DeliveryLog } from "./delivery-log";
import { deliveriesQuery } from "./queries";
import { EVENT_LABELS, FORMAT_LABELS, type EndpointItem as Endpoint } from "./types";
import styles from "./notifications.module.css";

/** One endpoint: what it sends where, Send test with the receiver's answer, enable/disable, log, delete. */
export function EndpointItem({
  endpoint,
  onChange,
  onDelete,
}: {
  endpoint: Endpoint;
  onChange: (e: Endpoint) => void;
  onDelete: (id: string) => void;
}) {
  const client = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const sendTest = useMutation({
    mutationFn: async () => (await unwrap(testWebhook(endpoint.id))).result,
    onSuccess: () => void client.invalidateQueries({ queryKey: deliveriesQuery(endpoint.id).queryKey }),
  });
  const toggle = useMutation({
    mutationFn: async () => (await unwrap(updateWebhook(endpoint.id, { enabled: !endpoint.enabled }))).endpoint,
    onSuccess: onChange,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(deleteWebhook(endpoint.id)),
    onSuccess: () => onDelete(endpoint.id),
  });
  const error = toggle.error ?? remove.error ?? sendTest.error;
  const test = sendTest.data;

  return (
    <li className="card" data-testid="endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <div className={`stack ${styles.facts}`}>
        <div className="row">
          <span className="tag">{FORMAT_LABELS[endpoint.format]}</span>
          <span className={endpoint.enabled ? "tag ok" : "tag bad"}>{endpoint.enabled ? "enabled" : "disabled"}</span>
          <span className="tag">{endpoint.workspaceName ?? "all workspaces"}</span>
          {endpoint.delaySeconds > 0 ? <span className="tag">after {endpoint.delaySeconds} s</span> : null}
          {endpoint.hasNtfyToken ? <span className="tag">access token</span> : null}
        </div>
        <div className={`mono ${styles.url}`}>
          {endpoint.url}
          {endpoint.ntfyTopic ? ` → topic ${endpoint.ntfyTopic}` : ""}
        </div>
        <div className="muted">{endpoint.events.map((e) => EVENT_LABELS[e]).join(" · ")}</div>
        {endpoint.disabledReason ? <p className={`warning ${styles.flush}`}>{endpoint.disabledReason}</p> : null}
      </div>
      <div className={`row ${styles.gapAbove}`}>
        <Button variant="primary" onClick={() => sendTest.mutate()} busy={sendTest.isPending} busyLabel="Sending…">
          Send test
        </Button>
        <Button onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? "Hide log" : "Delivery log"}
        </Button>
        <Button onClick={() => toggle.mutate()} busy={toggle.isPending}>
          {endpoint.enabled ? "Disable" : "Enable"}
        </Button>
        <Button
          variant="danger"
          busy={remove.isPending}
          onClick={() => {
            if (window.confirm(`Delete the endpoint ${endpoint.url}? Its delivery log goes with it.`)) remove.mutate();
          }}
        >
          Delete
        </Button>
      </div>
      {error ? (
        <div className={styles.gapAbove}>
          <StepUpRetry
            error={error}
            onRetry={() => (toggle.error ? toggle.mutate() : remove.error ? remove.mutate() : sendTest.mutate())}
          />
        </div>
      ) : null}
      {test ? (
        <div className={`${test.ok ? "notice" : "error"} ${styles.gapAbove}`} role="status" data-testid="test-result">
          <div>
            {test.statusCode !== null ? (
              <>
                The receiver answered <strong>{test.statusCode}</strong> in {test.latencyMs} ms.
              </>
            ) : (
              <>No answer after {test.latencyMs} ms.</>
            )}
            {test.error && test.statusCode === null ? ` ${test.error}` : ""}
          </div>
          {test.body ? <pre className={`mono ${styles.body}`}>{test.body}</pre> : null}
        </div>
      ) : null}
      {showLog ? (
        <div className={styles.gapAbove}>
          <DeliveryLog endpointId={endpoint.id} />
        </div>
      ) : null}
    </li>
  );
}
