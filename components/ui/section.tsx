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
}: {
  title: React.ReactNode;
  intro?: React.ReactNode;
  actions?: React.ReactNode;
  children?: React.ReactNode;
  testId?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <section className={`card ${styles.section} ${className ?? ""}`} aria-labelledby={id} data-testid={testId}>
      <div className={styles.sectionHead}>
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      {intro ? <p className={`muted ${styles.sectionIntro}`}>{intro}</p> : null}
      {children}
    </section>
  );
}
