import "server-only";
import { asc, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditCheckpoints, auditEvents } from "@/db/schema";
import { checkpointStatement, GENESIS, rowHash, type ChainedRow } from "./chain";
import { keyDirOf } from "./config";
import { macEpoch, rowMac, signingKey, verifyStatement } from "./keys";
import { pacer } from "@/lib/work/pace";

export type VerifyReport =
  | { intact: true; events: number; checkpoints: number; firstSeq: number | null; headSeq: number | null }
  | { intact: false; seq: number; reason: string; events: number; checkpoints: number };

/** The report's last line, as the CLI prints it. */
export function reportLine(r: VerifyReport): string {
  return r.intact
    ? `intact: ${r.events} events, ${r.checkpoints} signed checkpoints${r.headSeq ? ` (seq ${r.firstSeq}–${r.headSeq})` : ""}`
    : `broken at seq ${r.seq}: ${r.reason}`;
}

/** Rows checked between two turns of the event loop. */
export const VERIFY_BATCH = 500;

/**
 * Recomputes the whole chain and checks every checkpoint signature against the key in the data folder.
 * Stops at the first break and names it; reads the table in pages, so a large log fits in memory, and hands
 * the event loop a turn every VERIFY_BATCH rows, so the server keeps answering while a long log is checked.
 * A partial check cannot say "intact", so there is no work budget: callers share one run (verifyAuditOnce).
 */
export async function verifyAudit(
  db: Db,
  { keyDir, pageSize = 5000, onYield }: { keyDir?: string; pageSize?: number; onYield?: () => void } = {},
) {
  const pace = pacer({ budget: { units: Infinity, ms: Infinity }, batch: VERIFY_BATCH, sliceMs: 20, onYield });
  const checkpoints = await db.select().from(auditCheckpoints).orderBy(asc(auditCheckpoints.seq));
  const bySeq = new Map(checkpoints.map((c) => [Number(c.seq), c]));
  let events = 0;
  const broken = (seq: number, reason: string): VerifyReport => ({
    intact: false,
    seq,
    reason,
    events,
    checkpoints: checkpoints.length,
  });

  const dir = keyDir ?? (await keyDirOf());
  const key = signingKey(dir, { create: false });
  const macFrom = macEpoch(dir);
  let macSeen = false;
  if (checkpoints.length) {
    if (!key) return broken(Number(checkpoints[0]!.seq), "the checkpoint signing key is missing from the data folder");
    for (const c of checkpoints) {
      if (c.keyId !== key.keyId) return broken(Number(c.seq), "checkpoint was signed by another key");
      const statement = checkpointStatement({ seq: Number(c.seq), headHash: c.headHash, at: c.at });
      if (!verifyStatement(key, statement, c.signature))
        return broken(Number(c.seq), "checkpoint signature is invalid");
    }
  }

  let prev: { seq: number; hash: string } | null = null;
  let firstSeq: number | null = null;
  let cursor = -1;
  for (;;) {
    const page = await db
      .select()
      .from(auditEvents)
      .where(gt(auditEvents.seq, cursor))
      .orderBy(asc(auditEvents.seq))
      .limit(pageSize);
    if (page.length === 0) break;
    for (const row of page) {
      await pace.next();
      const seq = Number(row.seq);
      if (prev === null) {
        firstSeq = seq;
        if (seq === 1) prev = { seq: 0, hash: GENESIS };
        else {
          const anchor = bySeq.get(seq - 1);
          if (!anchor)
            return broken(seq - 1, `events before seq ${seq} are missing and no signed checkpoint anchors the cut`);
          prev = { seq: seq - 1, hash: anchor.headHash };
        }
      }
      if (seq !== prev.seq + 1)
        return broken(prev.seq + 1, `the event is missing (the next stored event is seq ${seq})`);
      if (row.prevHash !== prev.hash) return broken(seq, "prev_hash does not match the hash of the event before it");
      if (!row.hash) return broken(seq, "the event was never sealed into the chain");
      if (rowHash({ ...row, seq } as ChainedRow) !== row.hash)
        return broken(seq, "the event's content does not match its hash (a column was changed)");
      // The keyed MAC: a row edited and re-hashed (with the chain after it) by someone without the key fails here.
      if (row.mac) {
        if (!key) return broken(seq, "the audit key is missing from the data folder, so row MACs cannot be checked");
        if (row.mac !== rowMac(key, seq, row.hash))
          return broken(seq, "the event's MAC does not match (it was rewritten without the audit key)");
        macSeen = true;
      } else if (macSeen) return broken(seq, "the event carries no MAC although earlier events do (it was rewritten)");
      else if (macFrom !== null && seq >= macFrom)
        return broken(
          seq,
          `the event carries no MAC although every event since seq ${macFrom} must (it was rewritten)`,
        );
      const c = bySeq.get(seq);
      if (c && c.headHash !== row.hash) return broken(seq, "the event differs from the signed checkpoint at this seq");
      prev = { seq, hash: row.hash };
      events++;
    }
    cursor = Number(page[page.length - 1]!.seq);
  }
  const last = checkpoints[checkpoints.length - 1];
  if (last && Number(last.seq) > (prev?.seq ?? 0)) {
    const from = prev ? prev.seq + 1 : Number(last.seq);
    return broken(from, `events up to seq ${last.seq} were signed in a checkpoint but are missing (truncated tail)`);
  }
  return {
    intact: true,
    events,
    checkpoints: checkpoints.length,
    firstSeq,
    headSeq: prev?.seq ?? null,
  } satisfies VerifyReport as VerifyReport;
}

const runningKey = Symbol.for("permissions-cockpit.audit-verify");

/**
 * One verification at a time for the whole server: a caller who asks while one runs gets that run's report
 * (the chain spans every workspace, so every caller would compute the same thing).
 */
export function verifyAuditOnce(db: Db): Promise<VerifyReport> {
  const g = globalThis as typeof globalThis & { [runningKey]?: Promise<VerifyReport> };
  const running = g[runningKey];
  if (running) return running;
  const run = verifyAudit(db).finally(() => {
    if (g[runningKey] === run) delete g[runningKey];
  });
  g[runningKey] = run;
  return run;
}
