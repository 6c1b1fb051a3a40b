import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db/client";
import { recentLoginLinkMints } from "@/lib/auth/login-link-notices";
import { passkeyEnrolmentNotices } from "@/lib/auth/passkeys";
import { requirePageActor } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageActor();
  const db = await getDb();
  // Only the owner can act on a CLI-minted link (anything running as their OS user can mint one).
  const loginLinks = actor.owner
    ? (await recentLoginLinkMints(db, { sessionId: actor.sessionId })).map((m) => ({
        mintedAt: m.mintedAt.toISOString(),
        usedAt: m.usedAt?.toISOString() ?? null,
      }))
    : [];
  const passkeyNotices = await passkeyEnrolmentNotices(db, actor);
  return (
    <AppShell userName={actor.name} loginLinks={loginLinks} passkeyNotices={passkeyNotices}>
      {children}
    </AppShell>
  );
}
