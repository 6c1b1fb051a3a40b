import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { users } from "@/db/schema";
import { openSession } from "@/lib/auth/sessions";
import { STREAMS_PER_SESSION } from "@/lib/server/stream-slots";
import { GET } from "./route";

let opened: OpenedDb;
beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(users).values({ id: "u-streams", name: "Streams", isOwner: true });
}, 120_000);
afterAll(async () => opened.close());

const stream = (cookie: string) =>
  GET(
    new NextRequest("http://localhost:3000/api/v1/events", {
      headers: { cookie: `cockpit_session=${cookie}`, "user-agent": "vitest" },
    }),
    { params: Promise.resolve({}) } as never,
  );

describe("GET /api/v1/events", () => {
  it("holds at most a few open streams per session (429 with Retry-After beyond); closing one frees its slot", async () => {
    const a = (await opened.db.transaction((tx) => openSession(tx, { userId: "u-streams", signIn: "link" })))
      .sessionToken;
    const b = (await opened.db.transaction((tx) => openSession(tx, { userId: "u-streams", signIn: "link" })))
      .sessionToken;
    const open: Response[] = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) {
      const res = await stream(a);
      expect(res.status).toBe(200);
      open.push(res);
    }
    const refused = await stream(a);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/open event streams per session/);
    // Another session of the same person has its own allowance.
    const other = await stream(b);
    expect(other.status).toBe(200);
    await other.body!.cancel();
    // Closing a stream gives its slot back.
    await open.pop()!.body!.cancel();
    const again = await stream(a);
    expect(again.status).toBe(200);
    open.push(again);
    for (const res of open) await res.body!.cancel();
  });
});
