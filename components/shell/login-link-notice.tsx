"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Icon } from "@/components/ui/icon";
import { Time } from "@/components/ui/time";

/** A login link minted with the CLI, as the page receives it (dates as ISO strings). */
export interface LoginLinkMintView {
  mintedAt: string;
  usedAt: string | null;
}

const KEY = "cockpit.loginLinks.dismissed";

/**
 * For the owner: login links minted with the CLI that nobody has used yet, in one line. Anything running as the
 * owner's OS user can mint one, so an unexpected one matters; dismissing hides it until a newer one appears.
 * The full list (used ones too) is in Settings → Your sessions.
 */
export function LoginLinkNotice({ mints }: { mints: LoginLinkMintView[] }) {
  const unused = mints.filter((m) => !m.usedAt);
  const newest = unused.reduce<string | null>((a, m) => (a && a > m.mintedAt ? a : m.mintedAt), null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    try {
      setDismissed(localStorage.getItem(KEY));
    } catch {
      // storage disabled: the notice stays until the links are used or a day old
    }
  }, []);
  if (!newest || (dismissed && dismissed >= newest)) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(KEY, newest);
    } catch {
      // keep it for this page only
    }
    setDismissed(newest);
  };
  return (
    <div className="warning login-link-notice" role="note" aria-label="CLI login links" data-testid="login-link-notice">
      <Icon name="key" />
      <span>
        {unused.length === 1 ? "An unused login link was" : `${unused.length} unused login links were`} minted with the
        CLI (latest <Time iso={newest} />
        ). Not you? <Link href="/settings#sessions">Review the links</Link> (Settings → Your sessions).
      </span>
      <button type="button" className="login-link-dismiss" aria-label="Dismiss the login link notice" onClick={dismiss}>
        <Icon name="x" />
      </button>
    </div>
  );
}

/** Settings → Your sessions: every login link minted with the CLI in the last day, used or not. */
export function LoginLinkList({ mints }: { mints: LoginLinkMintView[] }) {
  if (mints.length === 0) return <p className="muted">No login links were minted with the CLI in the last 24 hours.</p>;
  return (
    <>
      <p className="muted">
        Login links minted with the CLI in the last 24 hours. If you did not run <code>cockpit login-link</code> then,
        another program running as your user did: end the sessions you do not recognise above and restart the cockpit.
      </p>
      <ul aria-label="CLI login links" data-testid="login-link-list">
        {mints.map((m) => (
          <li key={m.mintedAt}>
            minted <Time iso={m.mintedAt} />
            {m.usedAt ? (
              <>
                {" "}
                — used <Time iso={m.usedAt} />
              </>
            ) : (
              " — not used"
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
