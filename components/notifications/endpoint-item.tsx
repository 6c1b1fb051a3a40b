"use client";
import { useState } from "react";
import { deleteWebhook, testWebhook, updateWebhook, type TestSendResult } from "@/lib/client/api";
import { DeliveryLog } from "./delivery-log";
import { EVENT_LABELS, FORMAT_LABELS, type EndpointItem as Endpoint } from "./types";

type TestResult = TestSendResult;

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
  const [test, setTest] = useState<TestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [refresh, setRefresh] = useState(0);

  async function sendTest() {
    setBusy(true);
    setError(null);
    setTest(null);
    const res = await testWebhook(endpoint.id);
    setBusy(false);
    if (!res.ok) return setError(res.error);
    setTest(res.data.result);
    setRefresh((n) => n + 1);
  }

  async function toggle() {
    setError(null);
    const res = await updateWebhook(endpoint.id, { enabled: !endpoint.enabled });
    if (!res.ok) return setError(res.error);
    onChange(res.data.endpoint);
  }

  async function remove() {
    if (!window.confirm(`Delete the endpoint ${endpoint.url}? Its delivery log goes with it.`)) return;
    const res = await deleteWebhook(endpoint.id);
    if (!res.ok) return setError(res.error);
    onDelete(endpoint.id);
  }

  return (
    <li className="card" data-testid="endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <div className="stack" style={{ gap: "0.35rem" }}>
        <div className="row">
          <span className="tag">{FORMAT_LABELS[endpoint.format]}</span>
          <span className={endpoint.enabled ? "tag ok" : "tag bad"}>{endpoint.enabled ? "enabled" : "disabled"}</span>
          <span className="tag">{endpoint.workspaceName ?? "all workspaces"}</span>
          {endpoint.delaySeconds > 0 ? <span className="tag">after {endpoint.delaySeconds} s</span> : null}
          {endpoint.hasNtfyToken ? <span className="tag">access token</span> : null}
        </div>
        <div className="mono" style={{ overflowWrap: "anywhere" }}>
          {endpoint.url}
          {endpoint.ntfyTopic ? ` → topic ${endpoint.ntfyTopic}` : ""}
        </div>
        <div className="muted">{endpoint.events.map((e) => EVENT_LABELS[e]).join(" · ")}</div>
        {endpoint.disabledReason ? (
          <p className="warning" style={{ margin: 0 }}>
            {endpoint.disabledReason}
          </p>
        ) : null}
      </div>
      <div className="row" style={{ marginTop: "0.75rem" }}>
        <button type="button" className="primary" onClick={() => void sendTest()} disabled={busy}>
          {busy ? "Sending…" : "Send test"}
        </button>
        <button type="button" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? "Hide log" : "Delivery log"}
        </button>
        <button type="button" onClick={() => void toggle()}>
          {endpoint.enabled ? "Disable" : "Enable"}
        </button>
        <button type="button" className="danger" onClick={() => void remove()}>
          Delete
        </button>
      </div>
      {error ? (
        <p className="error" role="alert" style={{ marginTop: "0.75rem" }}>
          {error}
        </p>
      ) : null}
      {test ? (
        <div
          className={test.ok ? "notice" : "error"}
          role="status"
          style={{ marginTop: "0.75rem" }}
          data-testid="test-result"
        >
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
          {test.body ? (
            <pre className="mono" style={{ marginTop: "0.4rem", maxHeight: "8rem", overflow: "auto" }}>
              {test.body}
            </pre>
          ) : null}
        </div>
      ) : null}
      {showLog ? (
        <div style={{ marginTop: "0.75rem" }}>
          <DeliveryLog endpointId={endpoint.id} refreshKey={refresh} />
        </div>
      ) : null}
    </li>
  );
}
