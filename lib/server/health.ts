import "server-only";
import { getOpenedDb, migrationStatus } from "@/db/client";
import { VERSION } from "@/lib/version";

/** Liveness for people and scripts: version, database kind, migrations current (`GET /api/health`). */
export async function serverHealth() {
  const opened = await getOpenedDb();
  const migrations = await migrationStatus(opened.db);
  return { ok: migrations.current, version: VERSION, database: opened.kind, migrations };
}
