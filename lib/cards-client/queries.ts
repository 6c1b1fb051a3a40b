import { queryOptions } from "@tanstack/react-query";
import { fetchCard, fetchCards } from "./api";

export const cardKeys = {
  all: ["cards"] as const,
  list: (status: "pending" | "settled") => ["cards", "list", status] as const,
  one: (id: string) => ["cards", "one", id] as const,
};

/** The pending queue, oldest first; shared by the Cards page, the nav badge and the tab title. */
export const pendingCardsQuery = () => queryOptions({ queryKey: cardKeys.list("pending"), queryFn: () => fetchCards("pending", 500) });

export const SETTLED_LIMIT = 15;
export const settledCardsQuery = () => queryOptions({ queryKey: cardKeys.list("settled"), queryFn: () => fetchCards("settled", SETTLED_LIMIT) });

export const cardQuery = (id: string) => queryOptions({ queryKey: cardKeys.one(id), queryFn: () => fetchCard(id) });
