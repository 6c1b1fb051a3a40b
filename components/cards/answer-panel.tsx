"use client";
import { useEffect, useRef, useState } from "react";
import type { CardView } from "@/lib/cards/view";
import { allCovered, coveredNotes, rememberChoices, rulesToSave, type Choice } from "@/lib/cards-client/covered";
import { storeFilePath } from "@/lib/cards-client/format";
import { useAnswerCard, type AnswerNotice } from "@/lib/cards-client/use-answer";
import { useConnection } from "@/lib/cards-client/use-connection";
import { allowFromCockpit } from "@/lib/agents";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import styles from "./cards.module.css";
import { RememberChooser } from "./remember-chooser";

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
 * The answer controls. Deny and Allow once are large, at opposite ends of a bar that stays on screen while the
 * card does; remembering answers sit apart, use the choice picked above them, and "Always allow" needs a second,
 * explicit confirmation. While the server cannot be reached, nothing can be answered, and the bar says why.
 */
export function AnswerPanel(props: Props) {
  const allow = allowFromCockpit(props.card.agent);
  return allow.ok ? <FullAnswerPanel {...props} /> : <DenyOnlyPanel {...props} note={allow.note} />;
}

function FullAnswerPanel({ card, me, onNotice, actionsRef }: Props) {
  const [message, setMessage] = useState("");
  const [confirmAlways, setConfirmAlways] = useState(false);
  const choices = card.safetyCheck ? [] : rememberChoices(card);
  const [level, setLevel] = useState<string>(choices[0]?.level ?? "exact");
  const chosen: Choice | undefined = choices.find((c) => c.level === level) ?? choices[0];
  const answer = useAnswerCard(card, { me, onNotice });
  const connection = useConnection();
  const offline = !connection.answerable;
  const busy = answer.isPending;
  const blocked = busy || offline;
  // Tool-wide rules as the server's engine found them (lib/policy/tool-wide): they need an explicit confirmation.
  const wideRules = new Set(card.remember.wide ?? []);
  const toSave = chosen ? rulesToSave(chosen) : [];
  const covers = chosen ? allCovered(chosen) : false;
  const canSession = !!chosen && chosen.rules.length > 0 && !chosen.rules.some((r) => wideRules.has(r));
  const toolWide = toSave.filter((r) => wideRules.has(r));
  const canAlways = !!chosen && toSave.length > 0 && card.remember.workspaceStore !== null;
  const choice = chosen && card.remember.options?.length ? { choice: chosen.level } : {};

  const allowOnce = () => !blocked && answer.mutate({ outcome: "allow", remember: "once" });
  const deny = () =>
    !blocked && answer.mutate({ outcome: "deny", remember: "once", message: message.trim() || undefined });
  const session = () => canSession && !blocked && answer.mutate({ outcome: "allow", remember: "session", ...choice });
  const always = () => canAlways && !blocked && setConfirmAlways(true);

  useEffect(() => {
    if (!actionsRef) return;
    actionsRef.current = { allow: allowOnce, deny, session, always };
    return () => {
      actionsRef.current = null;
    };
  });

  if (confirmAlways && chosen) {
    return (
      <AlwaysConfirm
        card={card}
        chosen={chosen}
        toSave={toSave}
        toolWide={toolWide}
        busy={blocked}
        onCancel={() => setConfirmAlways(false)}
        onConfirm={() =>
          answer.mutate({
            outcome: "allow",
            remember: "workspace",
            ...choice,
            ...(toolWide.length ? { confirmToolWide: true } : {}),
          })
        }
      />
    );
  }

  // The answer bar is the panel's sibling, not its child: a sticky element sticks within its parent, and only the
  // whole card is tall enough for Deny and Allow to stay on screen while a long request is read.
  return (
    <>
      <div className={styles.remember}>
        {choices.length > 1 ? (
          <RememberChooser
            choices={choices}
            value={chosen!.level}
            onChange={setLevel}
            storeFile={card.remember.workspaceStore}
            disabled={blocked}
          />
        ) : null}
        {chosen ? <CoveredWarning choice={chosen} /> : null}
        {canSession || canAlways || covers ? (
          <div className={styles.secondaryRow}>
            {canSession ? (
              <button type="button" className={styles.secondary} onClick={session} disabled={blocked}>
                <span>Allow for this session</span>
                <small>
                  remembers <code>{chosen!.rules.join(", ")}</code> in the cockpit until the session ends
                </small>
              </button>
            ) : null}
            {canAlways ? (
              <button type="button" className={styles.secondary} onClick={always} disabled={blocked}>
                <span>Always allow…</span>
                <small>
                  saves <code>{toSave.join(", ")}</code> to <code>{card.remember.workspaceStore}</code> after you
                  confirm
                </small>
              </button>
            ) : null}
            {covers ? (
              <button type="button" className={styles.secondary} onClick={allowOnce} disabled={blocked}>
                <span>Allow once (the existing rule covers it)</span>
                <small>nothing new is saved: the rule above already allows this</small>
              </button>
            ) : null}
          </div>
        ) : card.safetyCheck ? null : (
          <p className={styles.nothingToRemember} data-testid="nothing-to-remember">
            <Icon name="info" size={16} /> Nothing can be remembered safely for this request (it runs code it downloads,
            or any rule for it would allow far more): allow it once or deny.
          </p>
        )}
        <DenyMessage
          cardId={card.id}
          value={message}
          onChange={setMessage}
          placeholder="e.g. Use pnpm instead, and don't touch the lockfile."
        />
      </div>
      <div className={styles.answerBar} data-testid="answer-bar">
        <AnswerStatus offline={offline} busy={busy} reason={connection.reason} />
        <div className={styles.answerRow}>
          <button type="button" className={styles.deny} onClick={deny} disabled={blocked}>
            {message.trim() ? "Deny with message" : "Deny"}
          </button>
          <button type="button" className={styles.allow} onClick={allowOnce} disabled={blocked}>
            Allow once
          </button>
        </div>
      </div>
    </>
  );
}

/**
 * An agent whose hook can deny but not approve (`AgentInfo.canAllowFromCockpit: false`): Deny, with or without a
 * message, and the agent's one line on where approving happens. No Allow button, no remembering (the server refuses
 * an allow for these agents too); the allow shortcuts do nothing.
 */
function DenyOnlyPanel({ card, me, onNotice, actionsRef, note }: Props & { note: string }) {
  const [message, setMessage] = useState("");
  const answer = useAnswerCard(card, { me, onNotice });
  const connection = useConnection();
  const offline = !connection.answerable;
  const busy = answer.isPending;
  const blocked = busy || offline;
  const deny = () =>
    !blocked && answer.mutate({ outcome: "deny", remember: "once", message: message.trim() || undefined });
  const nothing = () => undefined;

  useEffect(() => {
    if (!actionsRef) return;
    actionsRef.current = { allow: nothing, deny, session: nothing, always: nothing };
    return () => {
      actionsRef.current = null;
    };
  });

  return (
    <>
      <div className={styles.remember}>
        <DenyMessage
          cardId={card.id}
          value={message}
          onChange={setMessage}
          placeholder="e.g. Don't rebuild the image; run the tests instead."
        />
      </div>
      <div className={styles.answerBar} data-testid="answer-bar">
        <AnswerStatus offline={offline} busy={busy} reason={connection.reason} />
        <p className={styles.approveElsewhere} data-testid="approve-elsewhere">
          <Icon name="info" size={16} /> {note}
        </p>
        <div className={styles.answerRow}>
          <button type="button" className={styles.deny} onClick={deny} disabled={blocked}>
            {message.trim() ? "Deny with message" : "Deny"}
          </button>
        </div>
      </div>
    </>
  );
}

/** The second step of Always allow: the exact rules, the file, the lint's verdict; Escape or Cancel goes back. */
function AlwaysConfirm({
  card,
  chosen,
  toSave,
  toolWide,
  busy,
  onCancel,
  onConfirm,
}: {
  card: CardView;
  chosen: Choice;
  toSave: string[];
  toolWide: string[];
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // The confirmation replaces the buttons; bring all of it (with its own buttons) into view and focus it.
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "end" });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={styles.confirm}
      role="group"
      aria-label="Confirm always allow"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <strong>Always allow in {card.workspace.name}?</strong>
      <p className={styles.confirmText}>
        This writes {toSave.length === 1 ? "this rule" : "these rules"} ({chosen.label}) to{" "}
        <code className={styles.wrap} data-testid="store-file">
          {storeFilePath(card)}
        </code>
        , and the agent stops asking for matching requests:
      </p>
      <ul aria-label="Rules to write">
        {toSave.map((rule) => (
          <li key={rule}>
            <code className={styles.wrap}>{rule}</code>
          </li>
        ))}
      </ul>
      {chosen.verdict.notes.length ? (
        <p className={styles.confirmText} data-testid="confirm-verdict">
          Lint: {chosen.verdict.notes.join(" ")}
        </p>
      ) : null}
      <CoveredWarning choice={chosen} />
      {toolWide.length ? (
        <p className={`error ${styles.confirmText}`} role="alert" data-testid="tool-wide-warning">
          <strong>{toolWide.join(", ")}</strong> allows <em>every</em> use of the tool, not just this request: any
          command, file or address the agent picks runs without asking. Allow once unless you mean exactly that.
        </p>
      ) : null}
      <p className={`muted ${styles.confirmText}`}>
        You can undo it for 5 minutes, or revoke it later on the Rules page.
      </p>
      <div className={styles.answerRow}>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <button type="button" className={styles.allow} disabled={busy} onClick={onConfirm}>
          {toolWide.length ? "Allow every use, always" : "Confirm always allow"}
        </button>
      </div>
    </div>
  );
}

/**
 * "When remembering": a proposed Always-allow rule an existing allow already covers. Names that rule and
 * its store, so the person keeps it instead of appending a narrower copy.
 */
function CoveredWarning({ choice }: { choice: Choice }) {
  const notes = coveredNotes(choice);
  if (notes.length === 0) return null;
  return (
    <div role="note" aria-label="Already allowed" data-testid="covered-warning" className={styles.covered}>
      {notes.map((n) => (
        <p key={`${n.rule} ${n.store}`}>
          <Icon name="alert" size={16} /> {n.text}
        </p>
      ))}
    </div>
  );
}

/** "Deny with a message to the model": the folded text field both answer panels offer. */
function DenyMessage({
  cardId,
  value,
  onChange,
  placeholder,
}: {
  cardId: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
}) {
  return (
    <details className={`${styles.details} ${styles.feedback}`}>
      <summary>Deny with a message to the model</summary>
      <label htmlFor={`feedback-${cardId}`} className="sr-only">
        Message to the model
      </label>
      <textarea
        id={`feedback-${cardId}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        maxLength={5000}
      />
    </details>
  );
}

/** Why the answer buttons are disabled: offline (with the reason) or an answer on its way. */
function AnswerStatus({ offline, busy, reason }: { offline: boolean; busy: boolean; reason?: string }) {
  if (offline)
    return (
      <p className={styles.offlineReason} role="status" data-testid="answer-offline">
        <Icon name="wifiOff" size={16} /> {reason}
      </p>
    );
  if (busy)
    return (
      <p className={styles.offlineReason} role="status">
        Sending your answer…
      </p>
    );
  return null;
}
