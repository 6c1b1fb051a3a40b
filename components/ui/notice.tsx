import { Icon } from "./icon";
import styles from "./ui.module.css";

/** A confirmation or a neutral note (`role="status"`, announced politely), optionally dismissible. */
export function Notice({
  tone = "ok",
  children,
  onDismiss,
  dismissLabel = "Dismiss",
  testId,
}: {
  tone?: "ok" | "info";
  children: React.ReactNode;
  onDismiss?: () => void;
  dismissLabel?: string;
  testId?: string;
}) {
  return (
    <div className={`${tone === "ok" ? "notice" : "info"} ${styles.message}`} role="status" data-testid={testId}>
      <Icon name={tone === "ok" ? "check" : "info"} />
      <div className={styles.messageBody}>{children}</div>
      {onDismiss ? (
        <button type="button" className={styles.dismiss} aria-label={dismissLabel} onClick={onDismiss}>
          <Icon name="x" />
        </button>
      ) : null}
    </div>
  );
}
