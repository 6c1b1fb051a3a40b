"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { createWebhook, unwrap } from "@/lib/client/api";
import { Button } from "@/components/ui/button";
import { StepUpRetry } from "@/components/collaborators/step-up-retry";
import {
  EVENT_LABELS,
  FORMAT_LABELS,
  type EndpointItem,
  type EventType,
  type Format,
  type WorkspaceOption,
} from "./types";
import styles from "./notifications.module.css";

/** Adds a webhook endpoint; the signing secret is shown once, right after. */
export function EndpointForm({
  workspaces,
  onCreated,
}: {
  workspaces: WorkspaceOption[];
  onCreated: (endpoint: EndpointItem, secret: string) => void;
}) {
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<Format>("json");
  const [workspace, setWorkspace] = useState("");
  const [events, setEvents] = useState<EventType[]>(["card.admitted"]);
  const [delay, setDelay] = useState("0");
  const [topic, setTopic] = useState("");
  const [priority, setPriority] = useState("4");
  const [ntfyToken, setNtfyToken] = useState("");
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        createWebhook({
          url,
          format,
          workspace: workspace || null,
          events,
          delaySeconds: Number(delay) || 0,
          ...(format === "ntfy"
            ? { ntfyTopic: topic.trim() || null, ntfyPriority: Number(priority), ntfyToken: ntfyToken.trim() || null }
            : {}),
        }),
      ),
    onSuccess: ({ endpoint, secret }) => {
      onCreated(endpoint, secret);
      setUrl("");
      setTopic("");
      setNtfyToken("");
    },
  });

  const toggle = (e: EventType) => setEvents((list) => (list.includes(e) ? list.filter((x) => x !== e) : [...list, e]));

  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
      aria-label="Add an endpoint"
    >
      <div className={`row ${styles.bottom}`}>
        <div className={`field ${styles.grow}`}>
          <label htmlFor="ep-url">Receiver URL</label>
          <input
            id="ep-url"
            type="url"
            inputMode="url"
            placeholder={format === "ntfy" ? "https://ntfy.sh/your-topic" : "https://hooks.example.com/cockpit"}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor="ep-format">Format</label>
          <select id="ep-format" value={format} onChange={(e) => setFormat(e.target.value as Format)}>
            {(Object.keys(FORMAT_LABELS) as Format[]).map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {format === "ntfy" ? (
        <div className="row">
          <div className="field">
            <label htmlFor="ep-topic">ntfy topic</label>
            <input
              id="ep-topic"
              placeholder="from the URL if empty"
              value={topic}
              onChange={(e) => setTopic(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <div className="field">
            <label htmlFor="ep-priority">Priority</label>
            <select id="ep-priority" value={priority} onChange={(e) => setPriority(e.target.value)}>
              <option value="3">3 · default</option>
              <option value="4">4 · high</option>
              <option value="5">5 · urgent</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="ep-ntfy-token">Access token (optional)</label>
            <input
              id="ep-ntfy-token"
              type="password"
              placeholder="tk_… for a server with access control"
              value={ntfyToken}
              onChange={(e) => setNtfyToken(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
        </div>
      ) : null}
      <div className={`row ${styles.bottom}`}>
        <div className="field">
          <label htmlFor="ep-workspace">Workspace</label>
          <select id="ep-workspace" value={workspace} onChange={(e) => setWorkspace(e.target.value)}>
            <option value="">All workspaces</option>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="ep-delay">Only if still pending after (seconds)</label>
          <input
            id="ep-delay"
            type="number"
            min={0}
            max={86400}
            inputMode="numeric"
            value={delay}
            onChange={(e) => setDelay(e.target.value)}
          />
        </div>
      </div>
      <fieldset className={`row ${styles.bare}`}>
        <legend className={`muted ${styles.legend}`}>Send when</legend>
        {(Object.keys(EVENT_LABELS) as EventType[]).map((e) => (
          <label key={e} className={`row ${styles.check}`}>
            <input type="checkbox" checked={events.includes(e)} onChange={() => toggle(e)} />
            {EVENT_LABELS[e]}
          </label>
        ))}
      </fieldset>
      {create.error ? <StepUpRetry error={create.error} onRetry={() => create.mutate()} /> : null}
      <div>
        <Button
          variant="primary"
          type="submit"
          disabled={!url.trim() || events.length === 0}
          busy={create.isPending}
          busyLabel="Adding…"
        >
          Add endpoint
        </Button>
      </div>
    </form>
  );
}
