// Preloaded (`node --require`) into the `next start` process by `cockpit start`.
// Next.js route handlers never see the TCP socket (NextRequest.ip was removed in Next 15), so this stamps every
// incoming request with the socket's address in a header only the server sets: any copy the client sent is dropped
// first. lib/http/client-key.ts trusts the header only when the marker below says this preload is active.
"use strict";
const http = require("node:http");

const PEER_HEADER = "x-cockpit-peer";
const MARKER = Symbol.for("cockpit.peerHeader");

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, ...rest) {
    if (event === "request" && req && req.headers) {
      delete req.headers[PEER_HEADER];
      req.headers[PEER_HEADER] = (req.socket && req.socket.remoteAddress) || "unknown";
    }
    return emit.call(this, event, req, ...rest);
  };
}

module.exports = { PEER_HEADER, MARKER };
