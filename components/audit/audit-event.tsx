"use client";
import { useMemo, useState } from "react";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { Time } from "@/components/ui/time";
import { revealDeep } from "@/lib/text/reveal";
import styles from "./audit.module.css";
import type { AuditEventView } from "./types";
import { auditSentence } from "./sentence";

export type { AuditEventView };

type TraceStep = { step?: string; outcome?: string; why?: string };

const outcomeClass = (o: string | null) =>
  o === "allow" ? styles.allow : o === "deny" ? styles.deny : o === "ask" ? styles.ask : "";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  if (children === null || children === undefined || children === "") return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

const REPORTED =
  "The agent reported this (or it was imported from its log): the cockpit did not see a person answer it.";

/** A timeline row; opening it shows who, why (rule, store, decision trace) and the sanitized input. */
export function AuditEventItem({
  event: logged,
  workspaceName,
  onFilter,
}: {
  event: AuditEventView;
  workspaceName: string | null;
  onFilter: (key: "agentSession" | "tool" | "actor", value: string) => void;
}) {
  const [open, setOpen] = useState(false);
  // Tools, inputs, rules, paths and session ids are the agent's or a file's text: reveal them as cards do.
  const { value: e, hidden } = useMemo(() => revealDeep(logged), [logged]);
  // An agent's report or an imported log may say a person answered; only the cockpit's own rows are shown as such.
  const reported = e.actor.type === "agent" && Boolean(e.source?.startsWith("user"));
  const trace = Array.isArray(e.detail.trace) ? (e.detail.trace as TraceStep[]) : null;
  const sentence = auditSentence(e);
  // An imported agent log keeps the entry's own time: the timeline shows when it happened.
  const occurred = typeof e.detail.occurredAt === "string" ? e.detail.occurredAt : null;
  return (
    <li className={styles.event} data-testid="audit-event" data-seq={e.seq}>
      <button
        type="button"
        className={styles.eventHead}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="audit-event-toggle"
      >
        <span className={styles.time} title={occurred ? `imported ${e.at}` : undefined}>
          <Time iso={occurred ?? e.at} />
        </span>
        {occurred ? <span className="tag">imported</span> : null}
        {e.outcome ? <span className={`${styles.outcome} ${outcomeClass(e.outcome)}`}>{e.outcome}</span> : null}
        {e.source ? (
          <span className="tag" title={reported ? REPORTED : undefined} data-testid="audit-source">
            {reported ? `reported: ${e.source}` : e.source}
          </span>
        ) : null}
        <span className={styles.sentence} data-testid="audit-sentence">
          <strong data-testid="audit-who">{sentence.who}</strong> {sentence.verb}
          {sentence.what ? (
            <>
              {" "}
              <code className={styles.line}>{sentence.what}</code>
            </>
          ) : null}
          {sentence.where ? ` ${sentence.where}` : null}
        </span>
        <HiddenTextWarning hidden={hidden} />
      </button>
      {open ? (
        <div className={styles.details} data-testid="audit-details">
          <dl>
            <Field label="Event">
              <code>{e.type}</code>
            </Field>
            <Field label="Seq">#{e.seq}</Field>
            <Field label="Happened (UTC)">{occurred}</Field>
            <Field label={occurred ? "Recorded (UTC)" : "Time (UTC)"}>{e.at}</Field>
            <Field label="Workspace">{workspaceName}</Field>
            <Field label="Outcome">{e.outcome}</Field>
            <Field label="Decision source">
              {e.source && reported ? `${e.source} (reported by the agent)` : e.source}
            </Field>
            <Field label="Rule">{e.rule ? <code data-testid="audit-rule">{e.rule}</code> : null}</Field>
            <Field label="Store">{e.store ? <code className={styles.wrap}>{e.store}</code> : null}</Field>
            <Field label="Actor">
              {[
                e.actor.label,
                e.actor.type,
                e.actor.role && `role ${e.actor.role}`,
                e.actor.channel && `via ${e.actor.channel}`,
                e.actor.address,
              ]
                .filter(Boolean)
                .join(" · ")}
            </Field>
            <Field label="Agent">{e.agent}</Field>
            <Field label="Agent session">
              {e.agentSession ? (
                <button
                  type="button"
                  className={styles.linkish}
                  onClick={() => onFilter("agentSession", logged.agentSession!)}
                >
                  {e.agentSession}
                </button>
              ) : null}
            </Field>
            <Field label="Tool use">{e.toolUseId}</Field>
            <Field label="Folder">{e.cwd ? <code className={styles.wrap}>{e.cwd}</code> : null}</Field>
            <Field label="Target">{e.target ? <code className={styles.wrap}>{e.target}</code> : null}</Field>
            <Field label="Hash">{e.hash ? <code className={styles.wrap}>{e.hash}</code> : null}</Field>
          </dl>
          {trace?.length ? (
            <div>
              <div className={styles.subhead}>Decision trace</div>
              <ol className={styles.trace} data-testid="audit-trace">
                {trace.map((t, i) => (
                  <li key={i}>
                    <code>{String(t.step ?? "step")}</code>
                    {t.outcome ? <> → {String(t.outcome)}</> : null}
                    {t.why ? <span className="muted"> — {String(t.why)}</span> : null}
                  </li>
                ))}
              </ol>
            </div>
          ) : null}
          {e.input ? (
            <div>
              <div className={styles.subhead}>Input (sanitized)</div>
              <pre className={styles.json}>{JSON.stringify(e.input, null, 2)}</pre>
            </div>
          ) : null}
          <div>
            <div className={styles.subhead}>Detail</div>
            <pre className={styles.json}>{JSON.stringify(e.detail, null, 2)}</pre>
          </div>
        </div>
      ) : null}
    </li>
  );
}
