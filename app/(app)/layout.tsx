import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db/client";
import { recentLoginLinkMints } from "@/lib/auth/login-link-notices";
import { passkeyEnrolmentNotices } from "@/lib/auth/passkeys";
import { requirePageActor } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageActor();
  const db = await getDb();
  const loginLinks = await recentLoginLinkMints(db, { sessionId: actor.sessionId });
  const passkeyNotices = await passkeyEnrolmentNotices(db, actor);
  return (
    <AppShell userName={actor.name} loginLinks={loginLinks} passkeyNotices={passkeyNotices}>
      {children}
    </AppShell>
  );
}
