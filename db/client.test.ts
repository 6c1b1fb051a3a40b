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
});
