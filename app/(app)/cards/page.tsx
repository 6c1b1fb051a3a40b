import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getDb } from "@/db/client";
import { CardsBoard } from "@/components/cards/cards-board";
import { actorLabel } from "@/lib/auth/actor";
import { requirePageActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/access";
import { listVisibleWorkspaces } from "@/lib/workspaces/workspaces";
import { listCards } from "@/lib/cards/list-cards";
import { pendingCardsQuery, SETTLED_LIMIT, settledCardsQuery } from "@/lib/cards-client/queries";

export const metadata = { title: "Cards" };
export const dynamic = "force-dynamic";

/** First paint from the database; the board then stays live through the card event stream. */
export default async function CardsPage() {
  const actor = await requirePageActor();
  const db = await getDb();
  const [pending, settled] = await Promise.all([
    listCards({ db, actor, input: { status: "pending", limit: 500 } }),
    listCards({ db, actor, input: { status: "settled", limit: SETTLED_LIMIT } }),
  ]);
  const client = new QueryClient();
  client.setQueryData(pendingCardsQuery().queryKey, { cards: pending });
  client.setQueryData(settledCardsQuery().queryKey, { cards: settled });
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <CardsBoard
        me={actorLabel(actor)}
        answerIn={
          can(actor, "card.answer", null).ok
            ? "all"
            : (await listVisibleWorkspaces({ db, actor }))
                .filter((w) => can(actor, "card.answer", w.id).ok)
                .map((w) => w.id)
        }
      />
    </HydrationBoundary>
  );
}
