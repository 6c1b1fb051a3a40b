import Link from "next/link";
import { Icon } from "./icon";
import styles from "./ui.module.css";

/** "← Settings": the way back up from a sub-page, a 44 px tap target with an SVG arrow. */
export function BackLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <p className={styles.back}>
      <Link href={href} className={styles.backLink}>
        <Icon name="arrowLeft" size={16} /> {children}
      </Link>
    </p>
  );
}
