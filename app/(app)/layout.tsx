import { QueryProvider } from "@/components/cards/query-provider";
import { AppShell } from "@/components/shell/app-shell";
import { requirePageActor } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageActor();
  return (
    <QueryProvider>
      <AppShell userName={actor.name}>{children}</AppShell>
    </QueryProvider>
  );
}
