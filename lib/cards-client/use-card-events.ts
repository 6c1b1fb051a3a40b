"use client";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { subscribeCardEvents, type CardEvent } from "./event-stream";
import { cardKeys } from "./queries";

// The nav badge and the page both subscribe; one invalidation per change per cache is enough.
const invalidators = new Map<QueryClient, { count: number; stop: () => void }>();

function retainInvalidator(client: QueryClient): () => void {
  let entry = invalidators.get(client);
  if (!entry) {
    entry = { count: 0, stop: subscribeCardEvents(() => void client.invalidateQueries({ queryKey: cardKeys.all })) };
    invalidators.set(client, entry);
  }
  entry.count++;
  return () => {
    const e = invalidators.get(client);
    if (!e || --e.count > 0) return;
    e.stop();
    invalidators.delete(client);
  };
}

/** Live updates: every card change (or a reconnect) invalidates the card queries, which refetch. */
export function useCardEvents(onEvent?: (event: CardEvent | null) => void): void {
  const client = useQueryClient();
  useEffect(() => retainInvalidator(client), [client]);
  useEffect(() => (onEvent ? subscribeCardEvents(onEvent) : undefined), [onEvent]);
}
