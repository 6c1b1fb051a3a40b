"use client";
import type { ButtonHTMLAttributes } from "react";
import styles from "./ui.module.css";

type Variant = "default" | "primary" | "danger";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  /** A write is in flight: the button is disabled and says so (`busyLabel`, default the children). */
  busy?: boolean;
  busyLabel?: React.ReactNode;
}

/** The one button: at least 44 px tall (globals.css), a visible focus ring, and a busy state for writes. */
export function Button({ variant = "default", busy, busyLabel, className, disabled, children, ...rest }: ButtonProps) {
  const cls = [variant === "default" ? "" : variant, className ?? ""].filter(Boolean).join(" ") || undefined;
  return (
    <button type="button" {...rest} className={cls} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy ? <span className={styles.spinner} aria-hidden="true" /> : null}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
