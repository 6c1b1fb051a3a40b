import { randomBytes } from "node:crypto";
import { openDb, type OpenedDb } from "./client";

/**
 * A throwaway database on the server named by DATABASE_URL, migrated, and dropped afterwards.
 * Returns null (after saying why) when no server is configured; CI always configures one.
 */
export async function freshPostgres(): Promise<(OpenedDb & { drop(): Promise<void> }) | null> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    if (process.env.CI) throw new Error("CI must set DATABASE_URL for the Postgres suite");
    return null;
  }
  const { Client } = await import("pg");
  const name = `cockpit_t_${randomBytes(6).toString("hex")}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const opened = await openDb({ kind: "postgres", url: target.toString() });
  return {
    ...opened,
    async drop() {
      await opened.close();
      const cleanup = new Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
