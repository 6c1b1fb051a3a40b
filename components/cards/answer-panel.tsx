"use client";
import { useEffect, useRef, useState } from "react";
import type { CardView } from "@/lib/cards/view";
import { allCovered, coveredNotes, rulesToSave } from "@/lib/cards-client/covered";
import { storeFilePath } from "@/lib/cards-client/format";
import { shortSessionId } from "@/lib/cards-client/group";
import { useAnswerCard, type AnswerNotice } from "@/lib/cards-client/use-answer";
import styles from "./cards.module.css";

/** What keyboard shortcuts can do to the head card. */
export interface CardActions {
  allow: () => void;
  deny: () => void;
  session: () => void;
  always: () => void;
}

interface Props {
  card: CardView;
  me: string;
  onNotice: (n: AnswerNotice) => void;
  actionsRef?: { current: CardActions | null };
}

/**
 * The answer controls. Deny and Allow once are large and at opposite ends; remembering answers sit
 * apart as secondary controls, and "Always allow" needs a second, explicit confirmation.
 */
export function AnswerPanel({ card, me, onNotice, actionsRef }: Props) {
  const [message, setMessage] = useState("");
  const [confirmAlways, setConfirmAlways] = useState(false);
  const answer = useAnswerCard(card, { me, onNotice });
  const confirmRef = useRef<HTMLDivElement>(null);
  const busy = answer.isPending;
  // Tool-wide rules as the server's engine found them (lib/policy/tool-wide): they need an explicit confirmation.
  const wideRules = new Set(card.remember.wide ?? []);
  const canSession =
    !card.safetyCheck && card.remember.session.length > 0 && !card.remember.session.some((r) => wideRules.has(r));
  // Rules an existing allow already covers are not saved again (the server skips them too).
  const toSave = rulesToSave(card);
  const covers = allCovered(card);
  const toolWide = toSave.filter((r) => wideRules.has(r));
  const canAlways = !card.safetyCheck && toSave.length > 0 && card.remember.workspaceStore !== null;

  const allowOnce = () => !busy && answer.mutate({ outcome: "allow", remember: "once" });
  const deny = () =>
    !busy && answer.mutate({ outcome: "deny", remember: "once", message: message.trim() || undefined });
  const session = () => canSession && !busy && answer.mutate({ outcome: "allow", remember: "session" });
  const always = () => canAlways && setConfirmAlways(true);

  useEffect(() => {
    if (!actionsRef) return;
    actionsRef.current = { allow: allowOnce, deny, session, always };
    return () => {
      actionsRef.current = null;
    };
  });

  // The confirmation replaces the buttons; bring all of it (with its own buttons) into view.
  useEffect(() => {
    if (confirmAlways) confirmRef.current?.scrollIntoView({ block: "end" });
  }, [confirmAlways]);

  if (confirmAlways) {
    return (
      <div ref={confirmRef} className={styles.confirm} role="group" aria-label="Confirm always allow">
        <strong>Always allow in {card.workspace.name}?</strong>
        <p style={{ margin: "0.4rem 0" }}>
          This writes {toSave.length === 1 ? "this rule" : "these rules"} to{" "}
          <code style={{ overflowWrap: "anywhere" }} data-testid="store-file">
            {storeFilePath(card)}
          </code>
          , and the agent stops asking for matching requests:
        </p>
        <ul aria-label="Rules to write">
          {toSave.map((rule) => (
            <li key={rule}>
              <code style={{ overflowWrap: "anywhere" }}>{rule}</code>
            </li>
          ))}
        </ul>
        <CoveredWarning card={card} />
        {toolWide.length ? (
          <p className="error" role="alert" data-testid="tool-wide-warning" style={{ margin: "0.4rem 0" }}>
            ⚠ <strong>{toolWide.join(", ")}</strong> allows <em>every</em> use of the tool, not just this request: any
            command, file or address the agent picks runs without asking. Allow once unless you mean exactly that.
          </p>
        ) : null}
        <p className="muted" style={{ margin: "0.4rem 0", fontSize: "0.9rem" }}>
          You can revoke it later on the Rules page.
        </p>
        <div className={styles.answerRow}>
          <button type="button" onClick={() => setConfirmAlways(false)} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className={styles.allow}
            disabled={busy}
            onClick={() =>
              answer.mutate({
                outcome: "allow",
                remember: "workspace",
                ...(toolWide.length ? { confirmToolWide: true } : {}),
              })
            }
          >
            {toolWide.length ? "Allow every use, always" : "Confirm always allow"}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className={styles.remember}>
      {!card.safetyCheck ? <CoveredWarning card={card} /> : null}
      {canSession || canAlways || (covers && !card.safetyCheck) ? (
        <div className={styles.secondaryRow}>
          {canSession ? (
            <button type="button" className={styles.secondary} onClick={session} disabled={busy}>
              <span>Allow for this session</span>
              <small>
                remembers <code>{card.remember.session.join(", ")}</code> for session{" "}
                {shortSessionId(card.rootSessionId)}
              </small>
            </button>
          ) : null}
          {canAlways ? (
            <button type="button" className={styles.secondary} onClick={always} disabled={busy}>
              <span>Always allow…</span>
              <small>
                saves <code>{toSave.join(", ")}</code> to <code>{card.remember.workspaceStore}</code> after you confirm
              </small>
            </button>
          ) : null}
          {covers && !card.safetyCheck ? (
            <button type="button" className={styles.secondary} onClick={allowOnce} disabled={busy}>
              <span>Allow once (the existing rule covers it)</span>
              <small>nothing new is saved: the rule above already allows this</small>
            </button>
          ) : null}
        </div>
      ) : null}
      <details className={`${styles.details} ${styles.feedback}`}>
        <summary>Deny with a message to the model</summary>
        <label htmlFor={`feedback-${card.id}`} className="sr-only">
          Message to the model
        </label>
        <textarea
          id={`feedback-${card.id}`}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="e.g. Use pnpm instead, and don't touch the lockfile."
          maxLength={5000}
        />
      </details>
      <div className={styles.answerRow}>
        <button type="button" className={styles.deny} onClick={deny} disabled={busy}>
          {message.trim() ? "Deny with message" : "Deny"}
        </button>
        <button type="button" className={styles.allow} onClick={allowOnce} disabled={busy}>
          Allow once
        </button>
      </div>
      {busy ? (
        <p className="muted" role="status" style={{ margin: 0 }}>
          Sending your answer…
        </p>
      ) : null}
    </div>
  );
}

/**
 * "When remembering": a proposed Always-allow rule an existing allow already covers. Names that rule and
 * its store, so the person keeps it instead of appending a narrower copy.
 */
function CoveredWarning({ card }: { card: CardView }) {
  const notes = coveredNotes(card);
  if (notes.length === 0) return null;
  return (
    <div role="note" aria-label="Already allowed" data-testid="covered-warning" className={styles.covered}>
      {notes.map((n) => (
        <p key={`${n.rule} ${n.store}`} style={{ margin: "0.2rem 0" }}>
          ⚠ {n.text}
        </p>
      ))}
    </div>
  );
}
