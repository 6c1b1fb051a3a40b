// Volume run of `cockpit audit import` (the unit test imports 5,000 entries): a generated mevedel
// permission-log.el of BENCH_N entries (default 100,000) with malformed lines, streamed in batches into an
// embedded database, imported twice (the second adds nothing), then the chain verified.
// Run: npx tsx --conditions=react-server bench/audit/import.ts      Env: BENCH_N.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { configureAudit } from "@/lib/audit/config";
import { importEntries } from "@/lib/audit/import";
import { verifyAudit } from "@/lib/audit/verify";
import { importLogFile } from "@/lib/cli/verbs/audit";
import { MevedelLogReader } from "@/lib/agents/mevedel/permission-log";

const N = Number(process.env.BENCH_N ?? 100_000);

const entry = (i: number) =>
  `(:time "2026-05-01T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z" :event permission-decision :tool "Bash" :outcome ${i % 7 === 0 ? "deny" : "allow"} :mode ask :specifier "npm test ${i}" :rule-bucket persistent :session "s${i % 50}")`;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-audit-import-"));
  configureAudit({ keyDir: dir });
  const opened = await openDb({ kind: "embedded", dataDir: path.join(dir, "pgdata") });
  try {
    await opened.db.insert(workspaces).values({ id: "w", path: path.join(dir, "project"), name: "project" });
    const file = path.join(dir, "permission-log.el");
    const out = fs.createWriteStream(file);
    for (let i = 0; i < N; i++) {
      if (i % 9973 === 5) out.write('(:event permission-decision :tool "Bash" :outcome\n');
      out.write(entry(i) + "\n");
    }
    await new Promise((r) => out.end(r));
    const send = (entries: Parameters<typeof importEntries>[2]) =>
      importEntries(opened.db, { workspaceId: "w", agent: "mevedel" }, entries);
    const rows: string[] = [];
    const timed = async <T>(name: string, fn: () => Promise<T>, count: number): Promise<T> => {
      const t = performance.now();
      const result = await fn();
      const s = (performance.now() - t) / 1000;
      rows.push(`| ${name} | ${s.toFixed(1)} s | ${Math.round(count / s).toLocaleString("en-US")} entries/s |`);
      return result;
    };
    const first = await timed("first import", () => importLogFile(file, new MevedelLogReader(), send), N);
    const again = await timed(
      "second import (all duplicates)",
      () => importLogFile(file, new MevedelLogReader(), send),
      N,
    );
    const report = await timed("verify the chain", () => verifyAudit(opened.db, { keyDir: dir }), N);
    if (first.imported !== N || again.imported !== 0 || !report.intact)
      throw new Error(`unexpected: ${JSON.stringify({ first, again: again.imported, intact: report.intact })}`);
    console.log(
      `\n## audit import, ${N.toLocaleString("en-US")} entries (${first.malformed.length} malformed lines)\n`,
    );
    console.log("| step | time | rate |\n|---|---|---|");
    for (const r of rows) console.log(r);
  } finally {
    await opened.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
