import { seesWorkspace } from "@/lib/auth/access";
import { subscribeAccessChanges } from "@/lib/auth/access-bus";
import type { HumanActor } from "@/lib/auth/actor";
import { actorFromSessionToken } from "@/lib/auth/sessions";
import { sessionTokenFrom } from "@/lib/auth/cookies";
import { TooManyRequestsError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { STREAMS_PER_SESSION, takeStreamSlot } from "@/lib/server/stream-slots";
import { onShutdown, subscribeCardChanges } from "@/lib/cards/bus";

export const dynamic = "force-dynamic";

const PING_MS = 15_000;
/** How often an open stream re-reads its person's session and roles (an access change re-checks at once). */
const RECHECK_MS = Number(process.env.COCKPIT_STREAM_RECHECK_MS) || 10_000;

/**
 * Server-sent events: one `card` event per change in the caller's workspaces, a ping every 15 s; ends
 * when the client leaves, the session ends, or the person is removed (re-checked every 10 s and on
 * every access change). At most STREAMS_PER_SESSION open at once per session (429 beyond).
 */
export const GET = route({ access: "viewer" }, async ({ req, db, actor: initial }) => {
  let actor: HumanActor = initial;
  const release = takeStreamSlot(initial.kind === "user" ? `session:${initial.sessionId}` : "local-cli");
  if (!release)
    throw new TooManyRequestsError(`at most ${STREAMS_PER_SESSION} open event streams per session; close a tab`, 5);
  const token = sessionTokenFrom(req.headers.get("cookie"));
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
      const unsubscribe = subscribeCardChanges((c) => {
        if (!seesWorkspace(actor, c.workspaceId)) return;
        send(
          `event: card\ndata: ${JSON.stringify({ type: c.type, cardId: c.cardId, workspaceId: c.workspaceId, status: c.status })}\n\n`,
        );
      });
      const ping = setInterval(() => send(": ping\n\n"), PING_MS);
      let checking = false;
      const recheck = async () => {
        if (actor.kind !== "user" || checking) return;
        checking = true;
        try {
          const current = await actorFromSessionToken(db, token, { touch: false });
          if (!current) {
            send('event: access\ndata: {"ended":true}\n\n');
            onAbort();
          } else actor = current;
        } catch {
          // A database hiccup: keep the stream and try again at the next tick.
        } finally {
          checking = false;
        }
      };
      const recheckTimer = setInterval(() => void recheck(), RECHECK_MS);
      const stopAccess = subscribeAccessChanges((change) => {
        if (actor.kind === "user" && change.userId === actor.userId) void recheck();
      });
      cleanup = () => {
        release();
        unsubscribe();
        stopShutdown();
        stopAccess();
        clearInterval(ping);
        clearInterval(recheckTimer);
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
