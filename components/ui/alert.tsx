import { Icon } from "./icon";
import styles from "./ui.module.css";

/**
 * Something went wrong or needs attention before going on: an error (red, `role="alert"`, read out at once) or a
 * warning (amber). `action` is a button that fixes it (Retry, Refresh, Sign in).
 */
export function Alert({
  tone = "error",
  title,
  children,
  action,
  testId,
}: {
  tone?: "error" | "warning";
  title?: React.ReactNode;
  children?: React.ReactNode;
  action?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className={`${tone} ${styles.message}`} role={tone === "error" ? "alert" : "note"} data-testid={testId}>
      <Icon name="alert" />
      <div className={styles.messageBody}>
        {title ? <strong>{title} </strong> : null}
        {children}
      </div>
      {action}
    </div>
  );
}
