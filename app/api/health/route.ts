import { getOpenedDb, migrationStatus } from "@/db/client";
import { json, route } from "@/lib/http/route";
import { VERSION } from "@/lib/version";

export const dynamic = "force-dynamic";

/** Liveness for people and scripts: version, database kind, migrations current. */
export const GET = route({ access: "public" }, async () => {
  const opened = await getOpenedDb();
  const migrations = await migrationStatus(opened.db);
  return json({ ok: migrations.current, version: VERSION, database: opened.kind, migrations });
});
