"use client";
import { usePathname } from "next/navigation";
import { useConnection } from "@/lib/cards-client/use-connection";
import { Icon } from "@/components/ui/icon";
import { PasskeySignIn } from "@/components/collaborators/passkey-sign-in";

const LABEL = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
  ended: "Signed out",
} as const;

/** Live / reconnecting / offline, always visible: whether what the page shows is current and answers can be sent. */
export function ConnectionStatus() {
  const { state } = useConnection();
  return (
    <span className={`connection connection-${state}`} data-testid="connection" data-state={state}>
      <Icon name={state === "offline" ? "wifiOff" : state === "reconnecting" ? "refresh" : "check"} size={14} />
      {LABEL[state]}
    </span>
  );
}

/**
 * When the session ends elsewhere (signed out on another device, removed, expired), the event stream says so:
 * the page stays as it is (the card too) and offers to sign in again right here, then reloads the same page.
 */
export function SessionEndedBanner() {
  const { state } = useConnection();
  const path = usePathname();
  if (state !== "ended") return null;
  return (
    <div className="warning session-ended" role="alert" data-testid="session-ended">
      <Icon name="key" />
      <div>
        <strong>Your session has ended</strong> (signed out on another device, removed, or it expired). What you see is
        as it was; to answer, sign in again:
        <PasskeySignIn next={path} />
        <p className="muted">
          No passkey on this device? Run <code>npx cockpit login-link</code> in the cockpit&apos;s folder and open the
          link; you come back to this page.
        </p>
      </div>
    </div>
  );
}
