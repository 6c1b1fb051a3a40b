"use client";
import { useId } from "react";
import type { Choice } from "@/lib/cards-client/covered";
import { Icon } from "@/components/ui/icon";
import styles from "./cards.module.css";

const VERDICT = {
  ok: { icon: "check", text: "lint: no findings" },
  info: { icon: "info", text: "lint: a note" },
  warning: { icon: "alert", text: "lint: a warning" },
} as const;

/**
 * "What to remember": the choices the server built from this request, narrowest first (the default), each with
 * the rule text, the lint's verdict and the file it would go to. Choices the lint calls an error never arrive.
 */
export function RememberChooser({
  choices,
  value,
  onChange,
  storeFile,
  disabled,
}: {
  choices: Choice[];
  value: string;
  onChange: (level: string) => void;
  storeFile: string | null;
  disabled?: boolean;
}) {
  const name = useId();
  return (
    <fieldset className={styles.chooser} data-testid="remember-chooser" disabled={disabled}>
      <legend>Remember as</legend>
      {choices.map((c) => {
        const v = VERDICT[c.verdict.severity];
        return (
          <label key={c.level} className={styles.choice} data-level={c.level}>
            <input
              type="radio"
              name={name}
              value={c.level}
              checked={value === c.level}
              onChange={() => onChange(c.level)}
            />
            <span className={styles.choiceText}>
              <span>
                {c.label}
                {c.suggested ? (
                  <span className="tag">{c.level === "suggested" ? "agent's suggestion" : "agent suggests"}</span>
                ) : null}
              </span>
              {c.rules.map((r) => (
                <code key={r} className={styles.choiceRule}>
                  {r}
                </code>
              ))}
              <span
                className={`${styles.verdict} ${styles[`verdict-${c.verdict.severity}`]}`}
                data-testid="lint-verdict"
              >
                <Icon name={v.icon} size={14} />
                {c.verdict.notes.length ? c.verdict.notes.join(" ") : v.text}
              </span>
            </span>
          </label>
        );
      })}
      {storeFile ? (
        <p className={styles.chooserFile}>
          Always allow writes to <code data-testid="chooser-store-file">{storeFile}</code>; for this session, the
          cockpit keeps it.
        </p>
      ) : null}
    </fieldset>
  );
}
