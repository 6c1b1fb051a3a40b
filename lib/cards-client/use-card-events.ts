"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { subscribeCardEvents, type CardEvent } from "./event-stream";
import { cardKeys } from "./queries";

/** Live updates: every card change (or a reconnect) invalidates the card queries, which refetch. */
export function useCardEvents(onEvent?: (event: CardEvent | null) => void): void {
  const client = useQueryClient();
  useEffect(
    () =>
      subscribeCardEvents((event) => {
        void client.invalidateQueries({ queryKey: cardKeys.all });
        onEvent?.(event);
      }),
    [client, onEvent],
  );
}
