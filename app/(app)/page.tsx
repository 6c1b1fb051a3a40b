import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { requirePageActor } from "@/lib/auth/page";
import { countPendingCards } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** Where signing in lands: Cards when anything waits for this person, else Workspaces. */
export default async function Home() {
  const actor = await requirePageActor();
  const pending = await countPendingCards({ db: await getDb(), actor });
  redirect(pending > 0 ? "/cards" : "/workspaces");
}
