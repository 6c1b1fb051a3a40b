import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Either driver's drizzle database: PGlite (embedded) and node-postgres share this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: query functions take either. */
export type DbOrTx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export interface OpenedDb {
  db: Db;
  kind: "embedded" | "postgres";
  /** Raw client for LISTEN/NOTIFY (postgres) or live queries (embedded). */
  close(): Promise<void>;
  pgPool?: import("pg").Pool;
}

/** Folder of the committed drizzle migrations. */
export function migrationsFolder(): string {
  const root = process.env.COCKPIT_ROOT ?? process.cwd();
  return path.join(root, "db", "migrations");
}

export type OpenOptions =
  { kind: "embedded"; dataDir?: string /* undefined = in memory */ } | { kind: "postgres"; url: string };

/**
 * A dumped, migrated data folder a new embedded database starts from (PGlite `dumpDataDir`), named by
 * COCKPIT_PGLITE_TEMPLATE: creating a cluster costs seconds of CPU per database, loading one a fraction.
 * The test runner sets it (test/support/pglite-template.ts); migrations still run, so a stale one is only slower.
 * Never used for a data folder that already holds a database.
 */
function template(dataDir: string | undefined): Blob | undefined {
  const file = process.env.COCKPIT_PGLITE_TEMPLATE;
  if (!file || (dataDir && fs.existsSync(path.join(dataDir, "PG_VERSION")))) return undefined;
  try {
    return new Blob([fs.readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/**
 * COCKPIT_PGLITE_SHARED_BUFFERS (e.g. `8MB`): the embedded database's shared_buffers, PostgreSQL's default
 * (128MB) when unset. PGlite clears that memory at every start: the test runner, which opens a database per test
 * file, sets 8MB and halves the CPU each start costs. A value PostgreSQL would not read is refused, not ignored.
 */
function sharedBuffers(): string[] {
  const value = process.env.COCKPIT_PGLITE_SHARED_BUFFERS;
  if (!value) return [];
  if (!/^[1-9]\d{0,6}(kB|MB|GB)$/.test(value))
    throw new Error(`COCKPIT_PGLITE_SHARED_BUFFERS must be a size such as 8MB or 512kB, not ${JSON.stringify(value)}`);
  return ["-c", `shared_buffers=${value}`];
}

/** Opens a database and applies pending migrations. Tests call this directly for isolated instances. */
export async function openDb(options: OpenOptions): Promise<OpenedDb> {
  if (options.kind === "postgres") {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({ connectionString: options.url, max: 10 });
    // An idle connection the server closes (restart, failover) must not crash the process; the pool reconnects.
    pool.on("error", (error) => console.error(`postgres: idle connection lost (${error.message})`));
    const db = drizzle({ client: pool, schema, casing: "snake_case" }) as unknown as Db;
    await migrate(db as never, { migrationsFolder: migrationsFolder() });
    return { db, kind: "postgres", pgPool: pool, close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // pg_trgm backs the audit log's free-text search (migration 0007 creates the extension).
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const client = new PGlite({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    loadDataDir: template(options.dataDir),
    startParams: [...PGlite.defaultStartParams, ...sharedBuffers()],
  });
  await client.waitReady;
  const db = drizzle({ client, schema, casing: "snake_case" }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: migrationsFolder() });
  return { db, kind: "embedded", close: () => client.close() };
}

/** Number of committed migrations versus applied ones. */
export async function migrationStatus(db: Db): Promise<{ applied: number; committed: number; current: boolean }> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  const result = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const rows = (result as unknown as { rows: { n: number }[] }).rows;
  const applied = Number(rows[0]?.n ?? 0);
  return { applied, committed: journal.entries.length, current: applied >= journal.entries.length };
}

const globalKey = Symbol.for("permissions-cockpit.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<OpenedDb> };

/**
 * The server's one database, opened lazily on first use (never at import time:
 * `next build` imports route modules) and cached on globalThis across hot reloads.
 */
export function getOpenedDb(): Promise<OpenedDb> {
  const g = globalThis as GlobalWithDb;
  if (!g[globalKey]) {
    g[globalKey] = (async () => {
      const { env } = await import("../lib/config/env");
      const e = env();
      return e.DATABASE_URL
        ? openDb({ kind: "postgres", url: e.DATABASE_URL })
        : openDb({ kind: "embedded", dataDir: path.join(e.dataDir, "pgdata") });
    })().catch((error) => {
      delete g[globalKey];
      throw error;
    });
  }
  return g[globalKey]!;
}

export async function getDb(): Promise<Db> {
  return (await getOpenedDb()).db;
}

/** Tests and tools that run route handlers in-process point the server at their own database. */
export function setServerDb(opened: OpenedDb): void {
  (globalThis as GlobalWithDb)[globalKey] = Promise.resolve(opened);
}
