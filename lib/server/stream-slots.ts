/**
 * Open event streams per session. Each stream holds a connection, a bus subscription and two timers for as long as
 * the client keeps it, so one session (a person's tab gone wild, or anything holding a cookie) must not open them
 * without bound. A browser needs one per tab; the cap leaves room for several tabs.
 */
export const STREAMS_PER_SESSION = 8;

// Process-wide: Next.js may load this module once per bundle.
const key = Symbol.for("permissions-cockpit.stream-slots");
function open(): Map<string, number> {
  const g = globalThis as typeof globalThis & { [key]?: Map<string, number> };
  return (g[key] ??= new Map());
}

/** Takes a stream slot for `session`: the release function (idempotent), or null when the session is at its cap. */
export function takeStreamSlot(session: string, max = STREAMS_PER_SESSION): (() => void) | null {
  const all = open();
  const n = all.get(session) ?? 0;
  if (n >= max) return null;
  all.set(session, n + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (all.get(session) ?? 1) - 1;
    if (left <= 0) all.delete(session);
    else all.set(session, left);
  };
}
