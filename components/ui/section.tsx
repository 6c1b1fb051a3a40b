import { useId } from "react";
import styles from "./ui.module.css";

/** A titled block of a page (a card with an `h2`), labelled by its title for screen readers and axe. */
export function Section({
  title,
  intro,
  actions,
  children,
  testId,
  className,
  id,
}: {
  title: React.ReactNode;
  intro?: React.ReactNode;
  actions?: React.ReactNode;
  children?: React.ReactNode;
  testId?: string;
  className?: string;
  /** An anchor (`/settings#sessions`). */
  id?: string;
}) {
  const titleId = useId();
  return (
    <section
      className={`card ${styles.section} ${className ?? ""}`}
      aria-labelledby={titleId}
      data-testid={testId}
      id={id}
    >
      <div className={styles.sectionHead}>
        <h2 id={titleId}>{title}</h2>
        {actions}
      </div>
      {intro ? <p className={`muted ${styles.sectionIntro}`}>{intro}</p> : null}
      {children}
    </section>
  );
}
