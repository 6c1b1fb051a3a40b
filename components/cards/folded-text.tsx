"use client";
import { useState } from "react";
import { describeHidden, foldText } from "@/lib/cards-client/fold";
import { Icon } from "@/components/ui/icon";
import styles from "./cards.module.css";

/** Monospace text that wraps; long text shows head and tail with a control to reveal the middle. */
export function FoldedText({ text, label }: { text: string; label: string }) {
  const [open, setOpen] = useState(false);
  const fold = foldText(text);
  if (!fold.folded || open) {
    return (
      <div>
        <pre className={styles.code} aria-label={label}>
          {text}
        </pre>
        {fold.folded ? (
          <button type="button" className={styles.foldMarker} onClick={() => setOpen(false)}>
            Fold again
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <div>
      <pre className={styles.code} aria-label={`${label} (start)`}>
        {fold.head}
      </pre>
      <button type="button" className={styles.foldMarker} onClick={() => setOpen(true)} aria-expanded={false}>
        <Icon name="chevronDown" size={16} /> {describeHidden(fold)} · Show all{" "}
        {fold.totalLines > 1 ? `${fold.totalLines} lines` : `${text.length.toLocaleString("en-US")} characters`}
      </button>
      <pre className={styles.code} aria-label={`${label} (end)`}>
        {fold.tail}
      </pre>
    </div>
  );
}
