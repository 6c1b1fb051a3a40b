/** A card change as `/api/v1/events` sends it. */
export interface CardEvent {
  type: string;
  cardId: string;
  workspaceId: string;
  status: string;
}

type Listener = (event: CardEvent | null) => void;

let source: EventSource | null = null;
const listeners = new Set<Listener>();

/**
 * One EventSource per tab, shared by every subscriber (nav badge, Cards page, deep link) so a page
 * never holds several of the browser's few connections. `null` means "reconnected: refetch everything".
 */
export function subscribeCardEvents(listener: Listener): () => void {
  listeners.add(listener);
  if (!source && typeof EventSource !== "undefined") {
    source = new EventSource("/api/v1/events");
    source.addEventListener("card", (msg) => {
      let event: CardEvent | null = null;
      try {
        event = JSON.parse((msg as MessageEvent<string>).data) as CardEvent;
      } catch {
        return;
      }
      for (const l of listeners) l(event);
    });
    // Changes between the server's first paint and this connection, or during a dropped one, were
    // not streamed: every (re)connect asks everyone to refetch.
    source.addEventListener("open", () => {
      for (const l of listeners) l(null);
    });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && source) {
      source.close();
      source = null;
    }
  };
}
