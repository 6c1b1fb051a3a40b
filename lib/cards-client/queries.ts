import { queryOptions } from "@tanstack/react-query";
import { fetchCard, fetchCards, fetchPendingCount } from "@/lib/client/api";

export const cardKeys = {
  all: ["cards"] as const,
  list: (status: "pending" | "settled") => ["cards", "list", status] as const,
  one: (id: string) => ["cards", "one", id] as const,
  count: () => ["cards", "count"] as const,
  next: (after: string) => ["cards", "next", after] as const,
};

/** The pending queue, oldest first (the Cards page). */
export const pendingCardsQuery = () =>
  queryOptions({ queryKey: cardKeys.list("pending"), queryFn: () => fetchCards("pending", 500) });

/** Only the number of pending cards: the nav badge and the tab title on every page. */
export const pendingCountQuery = () => queryOptions({ queryKey: cardKeys.count(), queryFn: fetchPendingCount });

export const SETTLED_LIMIT = 15;
export const settledCardsQuery = () =>
  queryOptions({ queryKey: cardKeys.list("settled"), queryFn: () => fetchCards("settled", SETTLED_LIMIT) });

export const cardQuery = (id: string) => queryOptions({ queryKey: cardKeys.one(id), queryFn: () => fetchCard(id) });

/** The oldest pending card other than `after` (the deep link page's "Next pending card →"), or null. */
export const nextPendingCardQuery = (after: string) =>
  queryOptions({
    queryKey: cardKeys.next(after),
    queryFn: async () => (await fetchCards("pending", 2)).cards.find((c) => c.id !== after) ?? null,
  });
