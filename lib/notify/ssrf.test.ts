import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { notifyDeliveries } from "@/db/schema";
import { createEndpoint } from "./endpoints";
import { sendHttp, SendError } from "./http-send";
import { checkTarget, ipRefusal, parseTargetUrl, RefusedTargetError, type LookupAll } from "./ssrf";
import { ADMIN, notifyFixture, startReceiver, type NotifyFixture, type Receiver } from "@/test/support/notify";
import { startNotifyWorker } from "./worker";

const noAllow = { allowHosts: [] as string[] };
const refused = async (url: string, policy: Parameters<typeof checkTarget>[1] = noAllow) => {
  try {
    await checkTarget(parseTargetUrl(url), policy);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(RefusedTargetError);
    return (error as Error).message;
  }
};

let canary: http.Server;
let canaryPort: number;
let canaryHits = 0;
beforeAll(async () => {
  // Anything that reaches this listener is a policy hole.
  canary = http.createServer((_req, res) => {
    canaryHits++;
    res.end("leak");
  });
  await new Promise<void>((r) => canary.listen(0, "127.0.0.1", r));
  canaryPort = (canary.address() as AddressInfo).port;
});
afterAll(async () => {
  canary.closeAllConnections();
  await new Promise((r) => canary.close(r));
  expect(canaryHits).toBe(0);
});

describe("SSRF policy", () => {
  it.each([
    ["http://127.0.0.1/", /loopback/],
    ["http://[::1]/", /loopback/],
    ["http://169.254.169.254/latest/meta-data/", /link-local/],
    ["http://0.0.0.0/", /unspecified/],
    ["http://[::]/", /unspecified/],
    ["http://10.0.0.1/", /private/],
    ["http://172.16.5.4/", /private/],
    ["http://192.168.1.10/", /private/],
    ["http://100.64.0.1/", /carrier-grade/],
    ["http://[fc00::1]/", /unique local/],
    ["http://[fe80::1]/", /link-local/],
    ["http://224.0.0.1/", /multicast/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback/],
    ["http://0177.0.0.1/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.0.0.1/", /loopback/],
    ["http://[::ffff:127.0.0.1]/", /127\.0\.0\.1 is a loopback/],
    ["http://[::ffff:10.0.0.1]/", /private/],
    // IPv4 inside IPv6: compatible (the URL parser turns [::127.0.0.1] into [::7f00:1]), translated, NAT64, 6to4, Teredo.
    [
      "http://[::127.0.0.1]/",
      /127\.0\.0\.1 is a loopback address \(inside the IPv4-compatible IPv6 address ::7f00:1\)/,
    ],
    ["http://[::7f00:1]/", /127\.0\.0\.1 is a loopback address \(inside the IPv4-compatible/],
    ["http://[::10.1.2.3]/", /10\.1\.2\.3 is a private address \(inside the IPv4-compatible/],
    ["http://[::8.8.8.8]/", /deprecated IPv4-compatible/],
    ["http://[::ffff:0:7f00:1]/", /127\.0\.0\.1 is a loopback address \(inside the IPv4-translated/],
    ["http://[64:ff9b::127.0.0.1]/", /127\.0\.0\.1 is a loopback address \(inside the NAT64/],
    ["http://[64:ff9b::a9fe:a9fe]/", /169\.254\.169\.254 is a link-local address \(inside the NAT64/],
    ["http://[64:ff9b::192.168.0.1]/", /192\.168\.0\.1 is a private address \(inside the NAT64/],
    ["http://[64:ff9b:1::808:808]/", /local-use NAT64/],
    ["http://[2002:7f00:1::1]/", /127\.0\.0\.1 is a loopback address \(inside the 6to4/],
    ["http://[2002:a00:1::1]/", /10\.0\.0\.1 is a private address \(inside the 6to4/],
    ["http://[2001:0:a00:1::1]/", /10\.0\.0\.1 is a private address \(inside the Teredo/],
    ["http://metadata.google.internal/computeMetadata/v1/", /metadata/],
    // Not caught by name: the system resolver answers 127.0.0.1 and the address check refuses it.
    ["http://localhost:8080/", /localhost resolves to (127\.0\.0\.1|::1) is a loopback/],
    ["http://LOCALHOST./", /localhost resolves to (127\.0\.0\.1|::1) is a loopback/],
  ])("refuses %s", async (url, reason) => {
    expect(await refused(url)).toMatch(reason);
  });

  it.each(["file:///etc/passwd", "gopher://127.0.0.1:70/", "ftp://example.com/", "javascript:alert(1)", "not a url"])(
    "refuses the scheme or shape of %s",
    async (url) => {
      expect(await refused(url)).toMatch(/only http and https|not a valid URL/);
    },
  );

  it("judges IPv4 inside a resolved AAAA answer too; a NAT64 address of a public IPv4 host is allowed", async () => {
    const lookupAll: LookupAll = async (host) =>
      host === "sneaky.example" ? [{ address: "::7f00:1", family: 6 }] : [{ address: "64:ff9b::808:808", family: 6 }];
    expect(await refused("https://sneaky.example/", { allowHosts: [], lookupAll })).toMatch(
      /127\.0\.0\.1 is a loopback/,
    );
    expect(await checkTarget(new URL("https://v6only.example/"), { allowHosts: [], lookupAll })).toEqual({
      address: "64:ff9b::808:808",
      family: 6,
    });
    expect(ipRefusal("2606:4700::1111")).toBeNull();
  });

  it("refuses a name when any of its A/AAAA answers is private, and allows public ones", async () => {
    const lookupAll: LookupAll = async (host) =>
      host === "mixed.example"
        ? [
            { address: "93.184.215.14", family: 4 },
            { address: "fd00::5", family: 6 },
          ]
        : host === "127.0.0.1.nip.io"
          ? [{ address: "127.0.0.1", family: 4 }]
          : [{ address: "93.184.215.14", family: 4 }];
    expect(await refused("https://mixed.example/", { allowHosts: [], lookupAll })).toMatch(/fd00::5/);
    expect(await refused("https://127.0.0.1.nip.io/", { allowHosts: [], lookupAll })).toMatch(/loopback/);
    expect(await checkTarget(new URL("https://hooks.example/x"), { allowHosts: [], lookupAll })).toEqual({
      address: "93.184.215.14",
      family: 4,
    });
    expect(ipRefusal("8.8.8.8")).toBeNull();
    expect(ipRefusal("2001:4860:4860::8888")).toBeNull();
  });

  it("an allow-listed host bypasses the check for exactly that host", async () => {
    expect(await refused("http://127.0.0.1:9/", { allowHosts: ["127.0.0.1"] })).toBeNull();
    expect(await refused("http://127.0.0.2:9/", { allowHosts: ["127.0.0.1"] })).toMatch(/loopback/);
    expect(await refused("http://[::1]:9/", { allowHosts: ["::1"] })).toBeNull();
    const lookupAll: LookupAll = async () => [{ address: "192.168.1.5", family: 4 }];
    expect(await refused("http://ntfy.lan/", { allowHosts: ["ntfy.lan"], lookupAll })).toBeNull();
    expect(await refused("http://other.lan/", { allowHosts: ["ntfy.lan"], lookupAll })).toMatch(/private/);
  });

  it("connects to the checked address: a rebinding answer after the check cannot redirect the socket", async () => {
    const r = await startReceiver();
    let calls = 0;
    // The first answer is the (allowed) receiver; any later lookup would point at the canary.
    const lookupAll: LookupAll = async () =>
      calls++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.9.9.9", family: 4 }];
    const res = await sendHttp({
      url: `http://rebind.test:${r.port}/hook`,
      headers: {},
      body: "{}",
      timeoutMs: 2000,
      policy: { allowHosts: ["rebind.test"], lookupAll },
    });
    expect(res.statusCode).toBe(200);
    expect(calls).toBe(1);
    await r.close();
    // Checked at send time too: a name that now resolves to 10/8 is refused before any connection.
    const rebound: LookupAll = async () => [{ address: "10.1.2.3", family: 4 }];
    await expect(
      sendHttp({
        url: `http://rebind.test:${canaryPort}/`,
        headers: {},
        body: "{}",
        timeoutMs: 2000,
        policy: { allowHosts: [], lookupAll: rebound },
      }),
    ).rejects.toMatchObject({ kind: "refused" });
  });

  it("does not follow a redirect to loopback", async () => {
    const r = await startReceiver(() => ({
      status: 302,
      headers: { location: `http://127.0.0.1:${canaryPort}/steal` },
    }));
    const res = await sendHttp({
      url: r.url,
      headers: {},
      body: "{}",
      timeoutMs: 2000,
      policy: { allowHosts: ["127.0.0.1"] },
    });
    expect(res.statusCode).toBe(302);
    await r.close();
  });
});

describe("SSRF at save and at send time", () => {
  let f: NotifyFixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await notifyFixture({ allow: [] });
    r = await startReceiver();
  });
  afterAll(async () => {
    await r.close();
    await f.cleanup();
  });

  it("refuses loopback at save unless an admin allowed the host; revoking the allowance stops sends", async () => {
    await expect(
      createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: `http://127.0.0.1:${canaryPort}/` }, env: f.env }),
    ).rejects.toThrow(/loopback/);
    await expect(
      createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: "gopher://example.com/" }, env: f.env }),
    ).rejects.toThrow(/only http and https/);
    const { setAllowHosts } = await import("./settings");
    await setAllowHosts({ db: f.opened.db, actor: ADMIN, input: { hosts: ["127.0.0.1"] } });
    const ep = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env: f.env });
    await setAllowHosts({ db: f.opened.db, actor: ADMIN, input: { hosts: [] } });
    await f.admit("rm -rf x");
    const w = startNotifyWorker({ db: f.opened.db, env: f.env, pollMs: 0 });
    await w.tick();
    await w.stop();
    const [d] = await f.opened.db
      .select()
      .from(notifyDeliveries)
      .where(eq(notifyDeliveries.endpointId, ep.endpoint.id));
    expect(d).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: null });
    expect(d!.lastError).toMatch(/loopback/);
    expect(r.requests).toHaveLength(0);
    // The env allow list works the same way.
    await expect(
      createEndpoint({
        db: f.opened.db,
        actor: ADMIN,
        input: { url: r.url },
        env: { ...f.env, envAllowHosts: ["127.0.0.1"] },
      }),
    ).resolves.toBeDefined();
  });

  it("sendHttp reports timeouts and refused connections as retryable kinds", async () => {
    const slow = await startReceiver(() => ({ status: 200, delayMs: 1000 }));
    const err = await sendHttp({
      url: slow.url,
      headers: {},
      body: "",
      timeoutMs: 100,
      policy: { allowHosts: ["127.0.0.1"] },
    }).catch((e) => e);
    expect(err).toBeInstanceOf(SendError);
    expect(err.kind).toBe("timeout");
    await slow.close();
    const closed = await sendHttp({
      url: "http://127.0.0.1:1/",
      headers: {},
      body: "",
      timeoutMs: 1000,
      policy: { allowHosts: ["127.0.0.1"] },
    }).catch((e) => e);
    expect(closed.kind).toBe("connection");
  });
});
