import type { LoginLinkMint } from "@/lib/auth/login-link-notices";
import type { PasskeyEnrolmentNotice as EnrolmentNotice } from "@/lib/auth/passkeys";
import { LoginLinkNotice } from "./login-link-notice";
import { PasskeyEnrolmentNotice } from "./passkey-enrolment-notice";
import { NavLinks } from "./nav-links";
import { ServiceWorkerRegistration } from "./service-worker";
import { SignOutButton } from "./sign-out-button";

/** The signed-in frame: navigation plus the page. */
export function AppShell({
  userName,
  loginLinks = [],
  passkeyNotices = [],
  children,
}: {
  userName: string;
  loginLinks?: LoginLinkMint[];
  passkeyNotices?: EnrolmentNotice[];
  children: React.ReactNode;
}) {
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">Permissions Cockpit</div>
        <NavLinks />
        <div className="spacer" />
        <div className="muted signout" style={{ padding: "0 0.9rem", fontSize: "0.85rem" }}>
          Signed in as {userName}
        </div>
        <SignOutButton />
      </aside>
      <main className="content">
        <PasskeyEnrolmentNotice notices={passkeyNotices} />
        <LoginLinkNotice mints={loginLinks} />
        {children}
      </main>
      <ServiceWorkerRegistration />
    </div>
  );
}
