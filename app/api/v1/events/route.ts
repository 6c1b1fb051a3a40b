import { route } from "@/lib/http/route";
import { onShutdown, subscribeCardChanges } from "@/lib/cards/bus";

export const dynamic = "force-dynamic";

const PING_MS = 15_000;

/** Server-sent events: one `card` event per change, a ping comment every 15 s; ends when the client leaves. */
export const GET = route({ access: "viewer" }, async ({ req }) => {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      send("retry: 2000\n: connected\n\n");
      const unsubscribe = subscribeCardChanges((c) =>
        send(
          `event: card\ndata: ${JSON.stringify({ type: c.type, cardId: c.cardId, workspaceId: c.workspaceId, status: c.status })}\n\n`,
        ),
      );
      const ping = setInterval(() => send(": ping\n\n"), PING_MS);
      cleanup = () => {
        unsubscribe();
        stopShutdown();
        clearInterval(ping);
        req.signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      req.signal.addEventListener("abort", onAbort);
      // The browser's EventSource reconnects (retry: 2000) to the restarted server.
      const stopShutdown = onShutdown(onAbort);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
