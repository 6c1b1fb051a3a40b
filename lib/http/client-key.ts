import path from "node:path";

/** Set by lib/http/peer-preload.cjs from the request's socket; any client-sent copy is removed first. */
export const PEER_HEADER = "x-cockpit-peer";
const MARKER = Symbol.for("cockpit.peerHeader");
/** The preload `cockpit start` gives `next start` (`node --require <this> next start`). */
export const PEER_PRELOAD = path.join("lib", "http", "peer-preload.cjs");

/** True when this process runs the peer-address preload, so PEER_HEADER came from the socket, not the client. */
export function peerHeaderTrusted(): boolean {
  return (globalThis as Record<symbol, unknown>)[MARKER] === true;
}

/**
 * The key a throttle counts a client under.
 * - `COCKPIT_TRUST_PROXY=1` (behind one reverse proxy that appends the client's address): the LAST
 *   `X-Forwarded-For` entry, the one the proxy wrote; entries before it are whatever the client sent.
 * - Otherwise the socket address stamped by the preload. `X-Forwarded-For` is ignored, so a client cannot
 *   pick its own key.
 * - Without the preload (e.g. `next dev`) every client shares one key; failures then slow everyone, but a
 *   valid login link still works (see app/api/auth/login).
 */
export function clientKey(headers: Headers, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const last = hops.at(-1);
    if (last) return `xff:${last}`;
  }
  const peer = peerHeaderTrusted() ? headers.get(PEER_HEADER) : null;
  return peer ? `peer:${peer}` : "unknown";
}
