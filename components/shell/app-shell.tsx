import type { PasskeyEnrolmentNotice as EnrolmentNotice } from "@/lib/auth/passkeys";
import { ConnectionStatus, SessionEndedBanner } from "./connection-status";
import { LoginLinkNotice, type LoginLinkMintView } from "./login-link-notice";
import { PasskeyEnrolmentNotice } from "./passkey-enrolment-notice";
import { NavLinks } from "./nav-links";
import { ServiceWorkerRegistration } from "./service-worker";
import { SignOutButton } from "./sign-out-button";

/** The signed-in frame: a skip link, navigation with the connection state, then the page. */
export function AppShell({
  userName,
  loginLinks = [],
  passkeyNotices = [],
  children,
}: {
  userName: string;
  /** The owner's CLI-minted login links (others get none). */
  loginLinks?: LoginLinkMintView[];
  passkeyNotices?: EnrolmentNotice[];
  children: React.ReactNode;
}) {
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">Permissions Cockpit</div>
        <NavLinks />
        <div className="spacer" />
        <div className="muted signout signed-in-as">Signed in as {userName}</div>
        <SignOutButton />
      </aside>
      <main className="content" id="main" tabIndex={-1}>
        <div className="topline">
          <ConnectionStatus />
        </div>
        <SessionEndedBanner />
        <PasskeyEnrolmentNotice notices={passkeyNotices} />
        <LoginLinkNotice mints={loginLinks} />
        {children}
      </main>
      <ServiceWorkerRegistration />
    </div>
  );
}
