import { QueryProvider } from "@/components/cards/query-provider";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db/client";
import { recentLoginLinkMints } from "@/lib/auth/login-link-notices";
import { requirePageActor } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageActor();
  const loginLinks = await recentLoginLinkMints(await getDb(), { sessionId: actor.sessionId });
  return (
    <QueryProvider>
      <AppShell userName={actor.name} loginLinks={loginLinks}>
        {children}
      </AppShell>
    </QueryProvider>
  );
}
