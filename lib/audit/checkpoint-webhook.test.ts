import { verify, createPublicKey } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEndpoint } from "@/lib/notify/endpoints";
import { ADMIN, notifyFixture, startReceiver, type NotifyFixture, type Receiver } from "@/test/support/notify";
import { startNotifyWorker } from "@/lib/notify/worker";
import { checkpointNow } from "./checkpoint";
import { configureAudit } from "./config";

let f: NotifyFixture;
let keyDir: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-key-"));
  configureAudit({ keyDir });
  f = await notifyFixture();
});
afterAll(async () => {
  configureAudit({ keyDir: undefined });
  await Promise.all(receivers.map((r) => r.close()));
  await f.cleanup();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

describe("audit.checkpoint webhooks", () => {
  it("sends each checkpoint, verifiable with the public key it carries, only to subscribed endpoints", async () => {
    const subscribed = await startReceiver();
    const other = await startReceiver();
    receivers.push(subscribed, other);
    await createEndpoint({
      db: f.opened.db,
      actor: ADMIN,
      input: { url: subscribed.url, events: ["audit.checkpoint"] },
      env: f.env,
    });
    await createEndpoint({
      db: f.opened.db,
      actor: ADMIN,
      input: { url: other.url, events: ["card.admitted"] },
      env: f.env,
    });
    const checkpoint = await checkpointNow(f.opened.db);
    expect(checkpoint).not.toBeNull();
    const worker = startNotifyWorker({ db: f.opened.db, env: f.env, pollMs: 0 });
    await worker.tick();
    await worker.idle();
    await worker.stop();
    expect(other.requests).toHaveLength(0);
    expect(subscribed.requests).toHaveLength(1);
    const body = JSON.parse(subscribed.requests[0]!.body);
    expect(body.type).toBe("audit.checkpoint");
    const c = body.data.checkpoint;
    expect(c).toMatchObject({ seq: checkpoint!.seq, headHash: checkpoint!.headHash, algorithm: "Ed25519" });
    const publicKey = createPublicKey({
      key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(c.publicKey, "base64url")]),
      format: "der",
      type: "spki",
    });
    expect(verify(null, Buffer.from(c.statement, "base64url"), publicKey, Buffer.from(c.signature, "base64url"))).toBe(
      true,
    );
  });
});
