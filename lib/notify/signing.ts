import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Standard Webhooks 1.0 (symmetric, v1): HMAC-SHA256 over `${id}.${timestamp}.${body}`. */

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (the spec asks for 24 to 64). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** A stable message id for one event (never contains a dot, so it can't shift the signed fields). */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url").replace(/[-_]/g, "x")}`;
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

export function signWebhook(secret: string, msgId: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secretBytes(secret)).update(`${msgId}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three headers of one attempt; a retry gets a fresh timestamp and signature, the same id. */
export function webhookHeaders(
  secret: string,
  msgId: string,
  body: string,
  nowMs = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, msgId, timestamp, body),
  };
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key ? record[key] : undefined;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Receiver-side check, as a receiver should do it: on the raw body, before parsing JSON. Any one valid
 * `v1` signature in the space-separated list passes (key rotation); other versions are ignored; the
 * timestamp must be within the tolerance either way (too old and too new both fail).
 */
export function verifyWebhook(
  headers: HeaderSource,
  body: string | Buffer,
  secret: string,
  { toleranceSeconds = 300, nowMs = Date.now() }: { toleranceSeconds?: number; nowMs?: number } = {},
): VerifyResult {
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !ts || !signatures)
    return { ok: false, reason: "missing webhook-id, webhook-timestamp or webhook-signature" };
  if (!/^\d+$/.test(ts)) return { ok: false, reason: "the timestamp is not a number of seconds" };
  const timestamp = Number(ts);
  const now = Math.floor(nowMs / 1000);
  if (Math.abs(now - timestamp) > toleranceSeconds)
    return { ok: false, reason: "the timestamp is outside the tolerance" };
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body.toString()).slice(3), "base64");
  for (const entry of signatures.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: "no matching v1 signature" };
}
