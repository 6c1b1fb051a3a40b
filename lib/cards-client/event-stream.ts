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
    let opened = false;
    source.addEventListener("card", (msg) => {
      let event: CardEvent | null = null;
      try {
        event = JSON.parse((msg as MessageEvent<string>).data) as CardEvent;
      } catch {
        return;
      }
      for (const l of listeners) l(event);
    });
    // After a dropped connection, changes may have been missed: ask everyone to refetch.
    source.addEventListener("open", () => {
      if (opened) for (const l of listeners) l(null);
      opened = true;
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
