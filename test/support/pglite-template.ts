import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Vitest global setup: one migrated in-memory database, dumped to a file that every test's
 * `openDb({ kind: "embedded" })` starts from (COCKPIT_PGLITE_TEMPLATE, db/client.ts) instead of creating a
 * cluster (~5 s of CPU each, for dozens of suites). Named by the migrations' and PGlite's content, so a changed
 * migration makes a new one; runs in parallel write it atomically.
 * The dump is gzipped (5 MB instead of 42: mostly an empty WAL segment) and test databases get 8MB of shared
 * buffers instead of 128MB: PGlite reads the whole file and clears its buffers at every start, and those two cut a
 * start from ~3.1 to ~1.2 s of CPU (bench-free measurement in the commit that made them).
 */
export default async function setup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, "../..");
  const migrations = path.join(root, "db", "migrations");
  const hash = createHash("sha256");
  for (const name of fs.readdirSync(migrations).sort())
    if (name.endsWith(".sql")) hash.update(name).update(fs.readFileSync(path.join(migrations, name)));
  hash.update(fs.readFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "package.json")));
  process.env.COCKPIT_PGLITE_SHARED_BUFFERS ??= "8MB";
  const file = path.join(os.tmpdir(), `cockpit-pglite-template-${hash.digest("hex").slice(0, 16)}.tar.gz`);
  if (!fs.existsSync(file)) {
    const { openDb } = await import("@/db/client");
    delete process.env.COCKPIT_PGLITE_TEMPLATE;
    const opened = await openDb({ kind: "embedded" });
    const client = (opened.db as unknown as { $client: { dumpDataDir(c: "gzip"): Promise<Blob> } }).$client;
    const dump = Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer());
    await opened.close();
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, dump);
    fs.renameSync(tmp, file);
  }
  process.env.COCKPIT_PGLITE_TEMPLATE = file;
}
