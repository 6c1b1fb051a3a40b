/** A card change as `/api/v1/events` sends it. */
export interface CardEvent {
  type: string;
  cardId: string;
  workspaceId: string;
  status: string;
}

type Listener = (event: CardEvent | null) => void;

/**
 * How the page is connected to the cockpit: `live` (the event stream is open), `connecting` (first connection),
 * `reconnecting` (the stream dropped but the server answers requests), `offline` (the server cannot be reached, or
 * the browser is offline), `ended` (the person's session ended: signed out elsewhere, removed, or expired).
 */
export type ConnectionState = "connecting" | "live" | "reconnecting" | "offline" | "ended";

let source: EventSource | null = null;
const listeners = new Set<Listener>();
let state: ConnectionState = "connecting";
const stateListeners = new Set<() => void>();
let probeTimer: ReturnType<typeof setTimeout> | null = null;

function setState(next: ConnectionState): void {
  // A stream that finishes opening after the browser went offline (a slow page under load) does not make the
  // page live again: the "online" event ends offline.
  if (next === "live" && typeof navigator !== "undefined" && navigator.onLine === false) next = "offline";
  if (next === state) return;
  state = next;
  for (const l of stateListeners) l();
}

export function connectionState(): ConnectionState {
  return state;
}

/** Subscribe to connection changes (for `useSyncExternalStore`). */
export function subscribeConnection(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/**
 * The stream is down: ask the server directly whether it answers and whether the session still holds. A person
 * whose session ended gets 401 (then the stream stays closed); no answer means offline. Repeats until live.
 */
function probeSoon(delayMs: number): void {
  if (probeTimer || typeof window === "undefined") return;
  probeTimer = setTimeout(async () => {
    probeTimer = null;
    if (state === "live" || state === "ended") return;
    if (typeof navigator !== "undefined" && navigator.onLine === false) {
      setState("offline");
      return probeSoon(5_000);
    }
    try {
      const res = await fetch("/api/v1/me", { cache: "no-store" });
      if (res.status === 401) return ended();
      if (connectionState() === "live") return;
      setState(res.ok ? "reconnecting" : "offline");
    } catch {
      setState("offline");
    }
    // The server is back but the browser gave up on the stream (a refused reconnect): open a new one.
    if (source && source.readyState === EventSource.CLOSED) reopen();
    probeSoon(5_000);
  }, delayMs);
}

function ended(): void {
  setState("ended");
  source?.close();
}

function open(): void {
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
    setState("live");
    for (const l of listeners) l(null);
  });
  source.addEventListener("error", () => {
    if (state === "ended") return;
    if (state === "live" || state === "connecting") setState("reconnecting");
    probeSoon(source?.readyState === EventSource.CLOSED ? 0 : 2_500);
  });
  // The server re-reads the session while the stream is open and says when it ended.
  source.addEventListener("access", (msg) => {
    try {
      if ((JSON.parse((msg as MessageEvent<string>).data) as { ended?: boolean }).ended) ended();
    } catch {
      // not ours
    }
  });
}

function reopen(): void {
  source?.close();
  open();
}

if (typeof window !== "undefined") {
  window.addEventListener("offline", () => {
    setState("offline");
    probeSoon(5_000);
  });
  window.addEventListener("online", () => {
    if (state !== "offline") return;
    setState("reconnecting");
    if (source) reopen();
    probeSoon(0);
  });
}

/**
 * One EventSource per tab, shared by every subscriber (nav badge, Cards page, deep link) so a page
 * never holds several of the browser's few connections. `null` means "reconnected: refetch everything".
 */
export function subscribeCardEvents(listener: Listener): () => void {
  listeners.add(listener);
  if (!source && typeof EventSource !== "undefined" && state !== "ended") open();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && source) {
      source.close();
      source = null;
    }
  };
}
