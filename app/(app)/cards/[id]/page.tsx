import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { CardDetail } from "@/components/cards/card-detail";
import { actorLabel } from "@/lib/auth/actor";
import { requirePageActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/access";
import { getCard } from "@/lib/cards/get-card";
import { cardQuery } from "@/lib/cards-client/queries";
import { NotFoundError } from "@/lib/errors";

export const metadata = { title: "Card" };
export const dynamic = "force-dynamic";

export default async function CardPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor();
  const card = await getCard(await getDb(), { actor, cardId: id }).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const client = new QueryClient();
  client.setQueryData(cardQuery(id).queryKey, { card });
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <CardDetail id={id} me={actorLabel(actor)} canAnswer={can(actor, "card.answer", card.workspace.id).ok} />
    </HydrationBoundary>
  );
}
