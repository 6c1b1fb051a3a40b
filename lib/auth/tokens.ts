import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A random URL-safe token with `bytes` bytes of entropy (default 32 = 256 bits), optionally prefixed. */
export function randomToken(prefix = "", bytes = 32): string {
  return prefix + randomBytes(bytes).toString("base64url");
}

/** Hex SHA-256: what the database stores instead of a token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
