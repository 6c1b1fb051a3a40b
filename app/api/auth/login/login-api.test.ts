// vitest: isolated (it loads lib/http/peer-preload.cjs, which patches node:http for the rest of the process)
import http from "node:http";
import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { createOwnerLoginLink } from "@/lib/auth/login-links";
import { LOCAL_CLI } from "@/test/support/auth";
import { clientKey, PEER_HEADER, peerHeaderTrusted } from "@/lib/http/client-key";
import { loginThrottle } from "@/lib/http/throttle";
import * as login from "./route";

let opened: OpenedDb;
beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
});
afterAll(async () => {
  await opened.close();
});

function post(token: string, headers: Record<string, string> = {}) {
  const req = new NextRequest(new URL("/api/auth/login", "http://localhost:3000"), {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers },
    body: JSON.stringify({ token }),
  });
  return login.POST(req, { params: Promise.resolve({}) });
}
const wrong = (i: number) => `cpl_wrong-token-${i}-${"x".repeat(20)}`;

describe("client key", () => {
  it("ignores X-Forwarded-For unless COCKPIT_TRUST_PROXY=1, and then takes the proxy's (last) entry", () => {
    const h = (xff: string) => new Headers({ "x-forwarded-for": xff });
    expect(clientKey(h("1.1.1.1"), false)).toBe(clientKey(h("2.2.2.2"), false));
    expect(clientKey(h("6.6.6.6, 203.0.113.9"), true)).toBe("xff:203.0.113.9");
    expect(clientKey(h("7.7.7.7, 203.0.113.9"), true)).toBe("xff:203.0.113.9");
  });

  it("the start preload stamps the socket address and drops a client-sent copy of the header", async () => {
    expect(peerHeaderTrusted()).toBe(false);
    // A client-sent peer header means nothing while the preload is not running.
    expect(clientKey(new Headers({ [PEER_HEADER]: "9.9.9.9" }), false)).toBe("unknown");
    createRequire(import.meta.url)("../../../../lib/http/peer-preload.cjs");
    expect(peerHeaderTrusted()).toBe(true);
    const server = http.createServer((req, res) => res.end(JSON.stringify(req.headers)));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { [PEER_HEADER]: "6.6.6.6", "x-forwarded-for": "6.6.6.6" },
      });
      const seen = (await res.json()) as Record<string, string>;
      expect(seen[PEER_HEADER]).toBe("127.0.0.1");
      expect(clientKey(new Headers(seen), false)).toBe("peer:127.0.0.1");
    } finally {
      server.close();
    }
  });
});

describe("POST /api/auth/login throttle", () => {
  // As under `cockpit start`: the preload is active, so the peer header set below stands for the socket address.
  beforeAll(() => createRequire(import.meta.url)("../../../../lib/http/peer-preload.cjs"));
  beforeEach(() => {
    loginThrottle.reset("unknown");
    loginThrottle.reset("peer:198.51.100.7");
  });

  it("a client cannot dodge the throttle by sending a new X-Forwarded-For with each guess", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await post(wrong(i), { "x-forwarded-for": `10.0.0.${i}` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 410)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("a valid fresh login link still signs in while the client's key is locked out", async () => {
    const peer = { [PEER_HEADER]: "198.51.100.7" };
    for (let i = 0; i < 14; i++) await post(wrong(i), peer);
    const locked = await post(wrong(99), peer);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    const link = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const res = await post(link.token, peer);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/cps_/);
    // Success does not clear the key (one valid link buys a guesser no fresh allowance): a used link is still
    // refused while the key is locked out, and is never a second session.
    const reused = await post(link.token, peer);
    expect(reused.status).toBe(429);
    expect(reused.headers.get("set-cookie")).toBeNull();
  });
});
