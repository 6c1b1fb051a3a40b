import {
  createHash,
  createHmac,
  hkdfSync,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const KEY_FILE = "audit-signing-key.pem";

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SHA-256 of the raw 32-byte public key, hex. */
  keyId: string;
}

const cache = new Map<string, SigningKey>();

function fromPrivate(privateKey: KeyObject): SigningKey {
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { privateKey, publicKey, keyId: createHash("sha256").update(raw).digest("hex") };
}

/** The Ed25519 checkpoint key in `dir`, created on first use (mode 0600); null when absent and `create` is false. */
export function signingKey(dir: string, { create = true }: { create?: boolean } = {}): SigningKey | null {
  const file = path.join(dir, KEY_FILE);
  const cached = cache.get(file);
  if (cached) return cached;
  let pem: string;
  try {
    pem = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !create) return null;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync("ed25519");
    const fresh = privateKey.export({ format: "pem", type: "pkcs8" }) as string;
    try {
      // "wx": two processes racing both read back the winner's key.
      fs.writeFileSync(file, fresh, { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    pem = fs.readFileSync(file, "utf8");
  }
  const key = fromPrivate(createPrivateKey(pem));
  cache.set(file, key);
  return key;
}

const MAC_TAG = "permissions-cockpit/audit-row-mac/v1";
const macKeys = new WeakMap<SigningKey, Buffer>();

/**
 * The row MAC key: derived (HKDF-SHA256) from the checkpoint signing key, so the data folder holds one secret.
 * Every appended row carries HMAC-SHA256(macKey, tag ‖ seq ‖ rowHash): anyone who edits a row and re-hashes the
 * chain without the key is caught at the first edited row, not only at the next signed checkpoint.
 */
function macKey(key: SigningKey): Buffer {
  let k = macKeys.get(key);
  if (!k) {
    const secret = key.privateKey.export({ format: "der", type: "pkcs8" });
    k = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), MAC_TAG, 32));
    macKeys.set(key, k);
  }
  return k;
}

export const MAC_EPOCH_FILE = "audit-mac-from.json";
const epochs = new Map<string, number>();

/**
 * From which seq every row carries a MAC, as recorded next to the key when this data folder first MAC'd a row.
 * Without it, someone without the key could strip every MAC and then rewrite the tail unseen (verify would take the
 * whole log for one from before MACs existed). It lives beside the key: whoever can change it can read the key.
 */
export function macEpoch(dir: string): number | null {
  const cached = epochs.get(dir);
  if (cached !== undefined) return cached;
  try {
    const seq = Number(
      (JSON.parse(fs.readFileSync(path.join(dir, MAC_EPOCH_FILE), "utf8")) as { fromSeq: unknown }).fromSeq,
    );
    if (!Number.isInteger(seq) || seq < 1) return 1;
    epochs.set(dir, seq);
    return seq;
  } catch (error) {
    // Unreadable or garbled: demand MACs everywhere rather than nowhere.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : 1;
  }
}

/** The key for MAC'ing rows from `firstSeq` on; records the MAC epoch the first time (never moves it). */
export function macSigningKey(dir: string, firstSeq: number): SigningKey {
  const key = signingKey(dir)!;
  if (!epochs.has(dir) && macEpoch(dir) === null) {
    try {
      fs.writeFileSync(path.join(dir, MAC_EPOCH_FILE), JSON.stringify({ fromSeq: firstSeq }) + "\n", {
        mode: 0o600,
        flag: "wx",
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    macEpoch(dir);
  }
  return key;
}

export function rowMac(key: SigningKey, seq: number, hash: string): string {
  return createHmac("sha256", macKey(key)).update(`${MAC_TAG}\u0000${seq}\u0000${hash}`).digest("base64url");
}

export function signStatement(key: SigningKey, statement: Buffer): string {
  return sign(null, statement, key.privateKey).toString("base64url");
}

export function verifyStatement(key: SigningKey, statement: Buffer, signature: string): boolean {
  try {
    return verify(null, statement, key.publicKey, Buffer.from(signature, "base64url"));
  } catch {
    return false;
  }
}
