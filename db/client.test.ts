import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb, migrationStatus, type OpenedDb } from "./client";
import { workspaces } from "./schema";

describe("openDb (embedded, in memory)", () => {
  let opened: OpenedDb;
  afterAll(async () => opened?.close());
  it("applies every committed migration and can write", async () => {
    opened = await openDb({ kind: "embedded" });
    const status = await migrationStatus(opened.db);
    expect(status.current).toBe(true);
    expect(status.applied).toBe(status.committed);
    await opened.db.insert(workspaces).values({ id: "w1", path: "/tmp/x", name: "x" });
    const rows = await opened.db.select().from(workspaces);
    expect(rows.map((r) => r.path)).toEqual(["/tmp/x"]);
  });

  it("starts with the shared buffers COCKPIT_PGLITE_SHARED_BUFFERS names (the test runner's 8MB)", async () => {
    const r = await opened.db.execute(sql`show shared_buffers`);
    expect((r as unknown as { rows: { shared_buffers: string }[] }).rows[0]!.shared_buffers).toBe("8MB");
  });

  it("refuses a shared-buffers value PostgreSQL would not read, naming the variable", async () => {
    const before = process.env.COCKPIT_PGLITE_SHARED_BUFFERS;
    process.env.COCKPIT_PGLITE_SHARED_BUFFERS = "lots";
    try {
      await expect(openDb({ kind: "embedded" })).rejects.toThrow(/COCKPIT_PGLITE_SHARED_BUFFERS must be a size/);
    } finally {
      process.env.COCKPIT_PGLITE_SHARED_BUFFERS = before;
    }
  });
});
