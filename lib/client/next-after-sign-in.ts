import { safeNextPath } from "@/lib/text/next-path";

const KEY = "cockpit.next";
const TTL_MS = 30 * 60_000;

/**
 * The page to return to after signing in. `/login?next=…` keeps it in the URL; it is also kept in this browser
 * for 30 minutes, because a login link printed by the CLI (or a passkey on another tab) opens a new page
 * that does not carry it.
 */
export function rememberNext(raw: string | null): void {
  const next = safeNextPath(raw);
  if (!next) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ next, at: Date.now() }));
  } catch {
    // storage disabled: the URL still carries it
  }
}

/** Where to go now that the person is signed in: `next` from the URL, else a remembered one, else the landing page. */
export function takeNext(raw: string | null): string {
  let stored: string | null = null;
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "null") as { next?: string; at?: number } | null;
    if (v?.next && v.at && Date.now() - v.at < TTL_MS) stored = v.next;
    localStorage.removeItem(KEY);
  } catch {
    // nothing remembered
  }
  return safeNextPath(raw) ?? safeNextPath(stored) ?? "/";
}
