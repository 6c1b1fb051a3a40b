import type { LoginLinkMint } from "@/lib/auth/login-link-notices";

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Lists login links minted with the CLI in the last day (other than this session's own), so the owner can spot one they did not mint. */
export function LoginLinkNotice({ mints }: { mints: LoginLinkMint[] }) {
  if (mints.length === 0) return null;
  return (
    <div className="warning login-link-notice" role="note" aria-label="CLI login links" data-testid="login-link-notice">
      <strong>
        {mints.length === 1 ? "A login link was" : `${mints.length} login links were`} minted with the CLI in the last
        24 hours:
      </strong>
      <ul>
        {mints.map((m) => (
          <li key={m.mintedAt.toISOString()}>
            <time dateTime={m.mintedAt.toISOString()}>{utc(m.mintedAt)}</time>
            {m.usedAt ? ` — used at ${utc(m.usedAt)}` : " — not used"}
          </li>
        ))}
      </ul>
      <span>
        If you did not run <code>cockpit login-link</code> then, another program running as your user did: sign out
        everywhere and restart the cockpit.
      </span>
    </div>
  );
}
