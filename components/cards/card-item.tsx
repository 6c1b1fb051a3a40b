"use client";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { CardView } from "@/lib/cards/view";
import { fetchCard, markDisplayed } from "@/lib/client/api";
import { agentLabel } from "@/lib/agents";
import { describeCause, describeSettlement } from "@/lib/cards-client/format";
import { cardSubject } from "@/lib/cards-client/subject";
import type { AnswerNotice } from "@/lib/cards-client/use-answer";
import { displayCard, warningBanner } from "@/lib/cards-client/warnings";
import { Icon } from "@/components/ui/icon";
import { Time } from "@/components/ui/time";
import { AnswerPanel, type CardActions } from "./answer-panel";
import styles from "./cards.module.css";
import { Deadline } from "./deadline";
import { FoldedText } from "./folded-text";

interface Props {
  card: CardView;
  me: string;
  onNotice: (n: AnswerNotice) => void;
  head?: boolean;
  actionsRef?: { current: CardActions | null };
  /** On the list, a link to the card's own page; the deep link page omits it. */
  permalink?: boolean;
  /** A refusal about this card that leaves it pending (the answer failed): shown inside it. */
  notice?: React.ReactNode;
  /** The person may answer here (approver or above in the card's workspace); viewers see no answer controls. */
  canAnswer?: boolean;
}

/**
 * One permission prompt, built around answering: what is asked (the subject), the warnings and why it asked
 * come first; the facts are folded under Details; the answer bar stays on screen while the card does.
 */
export function CardItem({ card: raw, me, onNotice, head, actionsRef, permalink, notice, canAnswer = true }: Props) {
  const card = displayCard(raw);
  const ref = useRef<HTMLElement>(null);
  const pending = card.status === "pending";
  const full = useFullInput(card);
  const subject = cardSubject({ tool: card.tool, input: full.input });

  // The "displayed" lifecycle event: the first time a pending card is actually on someone's screen.
  useEffect(() => {
    const el = ref.current;
    if (!pending || !el) return;
    if (typeof IntersectionObserver === "undefined") return markDisplayed(card.id);
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        markDisplayed(card.id);
        observer.disconnect();
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [card.id, pending]);

  return (
    <article
      ref={ref}
      tabIndex={-1}
      className={styles.card}
      data-head={head ? "true" : undefined}
      data-testid="card"
      data-card-id={card.id}
      aria-label={`${card.tool}: ${subject.text.slice(0, 80)}`}
    >
      <div className={styles.cardTop}>
        <span className={styles.tool}>{card.tool}</span>
        <span className="tag">{agentLabel(card.agent)}</span>
        {card.originPath !== "/root" ? <span className="tag mono">{card.originPath}</span> : null}
        {card.safetyCheck ? <span className="tag bad">safety check</span> : null}
        <span className={`muted ${styles.age}`} data-testid="card-age">
          <Time iso={card.createdAt} relative prefix="asked " />
        </span>
        {permalink ? (
          <Link href={`/cards/${card.id}`} className={styles.permalink} aria-label={`Open this ${card.tool} card`}>
            Open <Icon name="arrowRight" size={16} />
          </Link>
        ) : null}
      </div>

      {!pending ? <SettlementBanner card={card} me={me} /> : null}
      {card.warnings.map((w) => {
        const b = warningBanner(w);
        return (
          <p
            key={w}
            className={`${styles.banner} ${b.tone === "danger" ? styles.bannerDanger : styles.bannerWarn}`}
            data-testid="warning"
          >
            <Icon name="alert" />
            <span>
              {b.title}. <span className={styles.plain}>{b.detail}</span>
            </span>
          </p>
        );
      })}
      {pending && card.safetyCheck ? (
        <p className={`${styles.banner} ${styles.bannerWarn}`}>
          <Icon name="shield" />
          <span>
            Safety check: only Allow once or Deny.{" "}
            <span className={styles.plain}>
              Approvals of destructive, sensitive or out-of-workspace requests are never remembered, so the agent will
              ask again next time.
            </span>
          </span>
        </p>
      ) : null}
      {pending && card.deadline ? (
        <p className={`${styles.banner} ${styles.bannerMuted}`}>
          <Icon name="clock" />
          <Deadline iso={card.deadline} />
        </p>
      ) : null}

      <div className={styles.subjectLabel}>{subject.label}</div>
      <FoldedText text={subject.text} label={subject.label} />
      {subject.extras.map((extra) => (
        <div key={extra.label}>
          <div className={styles.subjectLabel}>{extra.label}</div>
          <FoldedText text={extra.text} label={extra.label} />
        </div>
      ))}
      {full.omitted ? (
        <button
          type="button"
          className={styles.foldMarker}
          onClick={full.load}
          disabled={full.loading}
          data-testid="load-full-input"
        >
          {full.loading
            ? "Loading the full input…"
            : `Preview only: ${full.omitted.toLocaleString("en-US")} more characters left out · Show full input`}
        </button>
      ) : null}
      {full.error ? <p className="muted">Could not load the full input: {full.error}</p> : null}

      <p className={styles.why} data-testid="why">
        <strong>Why it asks:</strong> {describeCause(card.cause)}
        {card.decision.reason ? <span className="muted"> — {card.decision.reason}</span> : null}
      </p>
      {card.reason ? (
        <blockquote className={styles.quote} aria-label="The agent's reason">
          “{card.reason}”
        </blockquote>
      ) : null}

      <details className={styles.details}>
        <summary>Details</summary>
        <dl className={styles.facts}>
          <dt>Workspace</dt>
          <dd>
            {card.workspace.name} <span className="mono muted">{card.workspace.path}</span>
          </dd>
          <dt>Agent</dt>
          <dd>
            {agentLabel(card.agent)} <span className="mono">{card.originPath}</span>
          </dd>
          {card.cwd ? (
            <>
              <dt>Folder</dt>
              <dd className="mono">{card.cwd}</dd>
            </>
          ) : null}
          <dt>Session</dt>
          <dd className="mono">
            {card.sessionId}
            {card.sessionId !== card.rootSessionId ? ` (root ${card.rootSessionId})` : ""}
          </dd>
          <dt>Mode</dt>
          <dd>{card.modeBase === card.modeEffective ? card.modeBase : `${card.modeBase} → ${card.modeEffective}`}</dd>
          <dt>Asked</dt>
          <dd>
            <Time iso={card.createdAt} />
          </dd>
        </dl>
        <div className={styles.subjectLabel}>Full request (JSON)</div>
        <pre className={styles.code}>{JSON.stringify(full.input, null, 2)}</pre>
      </details>

      {notice}
      {pending && canAnswer ? <AnswerPanel card={card} me={me} onNotice={onNotice} actionsRef={actionsRef} /> : null}
      {pending && !canAnswer ? (
        <p className={styles.viewOnly} data-testid="view-only">
          <Icon name="info" size={16} /> You can see this request; answering it needs the approver role in{" "}
          {card.workspace.name}.
        </p>
      ) : null}
    </article>
  );
}

/** Lists carry a folded preview of huge inputs; the card's own endpoint has the whole input. */
function useFullInput(card: CardView) {
  const [loaded, setLoaded] = useState<{ id: string; input: Record<string, unknown> } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const have = loaded?.id === card.id ? loaded.input : null;
  const load = () => {
    setLoading(true);
    setError(null);
    fetchCard(card.id)
      .then(({ card: whole }) => setLoaded({ id: card.id, input: whole.input }))
      .catch((e: Error) => setError(e.message))
      .finally(() => setLoading(false));
  };
  return { input: have ?? card.input, omitted: have ? 0 : (card.inputOmitted ?? 0), loading, error, load };
}

function SettlementBanner({ card, me }: { card: CardView; me: string }) {
  const tone =
    card.status === "allowed" || (card.status === "coalesced" && card.settlement?.outcome === "allow")
      ? styles.bannerOk
      : card.status === "denied" || card.status === "expired"
        ? styles.bannerDanger
        : styles.bannerMuted;
  const s = card.settlement;
  return (
    <div className={`${styles.banner} ${styles.bannerColumn} ${tone}`} role="status">
      <span suppressHydrationWarning data-testid="settlement">
        {describeSettlement(card, { me })}
      </span>
      {s?.message ? <span className={styles.plain}>Message to the model: “{s.message}”</span> : null}
      {s?.saved?.rules.length ? (
        <span className={styles.plain} data-testid="settlement-saved">
          {s.saved.undone ? "Undone: " : "Saved "}
          <code>{s.saved.rules.join(", ")}</code>{" "}
          {s.saved.store ? `${s.saved.undone ? "removed from" : "to"} ${s.saved.store}` : "for this session"}
          {s.saved.undone ? ` by ${s.saved.undone.by === me ? "you" : s.saved.undone.by}` : ""}.
        </span>
      ) : null}
      {s?.ruleNotSaved ? <span className={styles.plain}>The rule was not saved: {s.ruleNotSaved}</span> : null}
      {card.status === "expired" ? (
        <span className={styles.plain}>Nothing was granted; the agent was told the user may be away.</span>
      ) : null}
      {card.status === "aborted" ? (
        <span className={styles.plain}>
          The agent stopped waiting (answered in its terminal or gave up); nothing was granted here.
        </span>
      ) : null}
    </div>
  );
}
