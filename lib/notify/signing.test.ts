import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook, verifyWebhook, webhookHeaders } from "./signing";

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const ts = 1614265330;
const body = '{"test": 2432232314}';
const vector = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
const nowMs = ts * 1000;
const headers = (signature: string, timestamp: string | number = ts) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature,
});

describe("Standard Webhooks signing", () => {
  it("reproduces the spec's test vector and verifies it", () => {
    expect(signWebhook(secret, id, ts, body)).toBe(vector);
    expect(verifyWebhook(headers(vector), body, secret, { nowMs })).toEqual({ ok: true });
    expect(verifyWebhook(new Headers(headers(vector)), Buffer.from(body), secret, { nowMs }).ok).toBe(true);
  });

  it.each([
    ["a flipped body byte", headers(vector), '{"test": 2432232315}', secret],
    ["a wrong secret", headers(vector), body, "whsec_" + Buffer.alloc(24, 7).toString("base64")],
    ["an empty v1 signature", headers("v1,"), body, secret],
    ["only non-v1 signatures", headers("v1a,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= v2,abc"), body, secret],
    ["a timestamp 301 s old", headers(signWebhook(secret, id, ts - 301, body), ts - 301), body, secret],
    ["a timestamp 301 s ahead", headers(signWebhook(secret, id, ts + 301, body), ts + 301), body, secret],
    ["a non-numeric timestamp", headers(vector, "1614265330a"), body, secret],
  ])("rejects %s", (_name, h, b, s) => {
    expect(verifyWebhook(h, b, s, { nowMs }).ok).toBe(false);
  });

  it("rejects missing headers", () => {
    const { ["webhook-signature"]: _drop, ...rest } = headers(vector);
    expect(verifyWebhook(rest, body, secret, { nowMs })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("missing"),
    });
    expect(verifyWebhook({ ...headers(vector), "webhook-id": undefined }, body, secret, { nowMs }).ok).toBe(false);
  });

  it("accepts a list with one valid signature among others (key rotation)", () => {
    const other = signWebhook(newWebhookSecret(), id, ts, body);
    expect(verifyWebhook(headers(`v1a,xyz ${other} ${vector}`), body, secret, { nowMs }).ok).toBe(true);
    expect(verifyWebhook(headers(`${other} v1,AAAA`), body, secret, { nowMs }).ok).toBe(false);
  });

  it("accepts exactly at the tolerance edge and fails closed at ±10 minutes of skew", () => {
    const at = (skew: number) =>
      verifyWebhook(headers(signWebhook(secret, id, ts + skew, body), ts + skew), body, secret, { nowMs }).ok;
    expect(at(300)).toBe(true);
    expect(at(-300)).toBe(true);
    expect(at(600)).toBe(false);
    expect(at(-600)).toBe(false);
  });

  it("makes secrets of at least 24 random bytes and signs each attempt with the attempt's time", () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(s.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const h = webhookHeaders(s, id, body, 1_700_000_000_500);
    expect(h["webhook-timestamp"]).toBe("1700000000");
    expect(verifyWebhook(h, body, s, { nowMs: 1_700_000_000_000 }).ok).toBe(true);
  });
});
