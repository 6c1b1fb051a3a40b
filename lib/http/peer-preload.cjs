// Preloaded (`node --require`) into the `next start` process by `cockpit start`.
// Next.js route handlers never see the TCP socket (NextRequest.ip was removed in Next 15), so this stamps every
// incoming request with the socket's address in a header only the server sets: any copy the client sent is dropped
// first. lib/http/client-key.ts trusts the header only when the marker below says this preload is active.
// It also bounds shutdown (SIGTERM/SIGINT). Next stops listening and waits for every connection to end, but a
// browser keeps its keep-alive sockets busy (an EventSource reconnects every 2 s on the same socket), so that wait
// never ended. From the signal on, responses close their connection, idle sockets are closed every 100 ms, and the
// process exits after STOP_DEADLINE_MS whatever still holds it: held long-polls and event streams were already
// released (lib/cards/bus.ts announceShutdown), and a write cut short is no worse than a kill -9, which loses nothing.
"use strict";
const http = require("node:http");

const PEER_HEADER = "x-cockpit-peer";
const MARKER = Symbol.for("cockpit.peerHeader");
const STOP_DEADLINE_MS = 4000;

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  const servers = new Set();
  let stopping = false;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, ...rest) {
    if (event === "request" && req && req.headers) {
      servers.add(this);
      delete req.headers[PEER_HEADER];
      req.headers[PEER_HEADER] = (req.socket && req.socket.remoteAddress) || "unknown";
      // Stopping: this response closes its connection instead of keeping it for the client's next request.
      if (stopping && rest[0]) rest[0].shouldKeepAlive = false;
    }
    return emit.call(this, event, req, ...rest);
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const sweep = () => {
      for (const server of servers) server.closeIdleConnections();
    };
    sweep();
    setInterval(sweep, 100).unref();
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
  };
  // Only in the server `cockpit start` preloads this into (tests require it for the header alone). Next's own
  // handlers still run (they stop listening); these only bound how long that takes.
  if (process.execArgv.some((arg) => arg.endsWith("peer-preload.cjs"))) {
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  }
}

module.exports = { PEER_HEADER, MARKER, STOP_DEADLINE_MS };
