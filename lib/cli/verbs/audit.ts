import { NotFoundError, ValidationError } from "@/lib/errors";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { AGENT_LIST, AUDIT_LOG_AGENTS } from "@/lib/agents";
import { auditLogOf } from "@/lib/agents/registry";
import type { AgentInfo, AuditLogEntry, AuditLogReader } from "@/lib/agents/types";
import { callServer } from "../server-client";
import { parseFlags, type Verb } from "../verb";

/** The agents' own logs, for help text: "mevedel's permission-log.el". */
const LOGS = AGENT_LIST.flatMap((a: AgentInfo) => (a.auditLog ? [`${a.label}'s ${a.auditLog.file}`] : [])).join(", ");

const usage = `Usage: cockpit audit verify [--json]
       cockpit audit import FILE --workspace DIR [--agent ${AUDIT_LOG_AGENTS.join("|")}] [--session ID]

  verify   recompute the audit log's hash chain and check every signed checkpoint;
           the last line is "intact: N events" (exit 0) or "broken at seq N: why" (exit 1)
  import   add an agent's own permission log (${LOGS})
           to the audit log of workspace DIR.
           Malformed entries are reported by line and skipped; the rest is imported. Importing
           the same file twice adds nothing (each entry is keyed by its hash). Shows a progress
           bar on stderr. --agent: whose log it is (default: ${AUDIT_LOG_AGENTS[0]}${AUDIT_LOG_AGENTS.length > 1 ? "" : ", the only agent that keeps one"}).
           --session names the agent session (default: the folder holding FILE, as an agent may
           keep one log per session folder). Each row keeps the entry's original time
           (detail.occurredAt).

Needs the running cockpit (it works with the embedded database and with PostgreSQL).`;

interface VerifyAnswer {
  intact: boolean;
  line: string;
}

/** Entries per request to the import route. */
export const IMPORT_BATCH = 2000;

/** A one-line progress bar on stderr (a TTY redraws in place; a pipe gets a line per 10%). */
function progress(total: number) {
  const tty = process.stderr.isTTY;
  let lastTenth = -1;
  return (done: number, imported: number) => {
    const ratio = total ? Math.min(1, done / total) : 1;
    const width = 30;
    const bar = "#".repeat(Math.round(ratio * width)).padEnd(width, ".");
    const line = `[${bar}] ${(ratio * 100).toFixed(0).padStart(3)}%  ${imported} imported`;
    if (tty) process.stderr.write(`\r${line}`);
    else if (Math.floor(ratio * 10) > lastTenth) {
      lastTenth = Math.floor(ratio * 10);
      process.stderr.write(line + "\n");
    }
  };
}

/**
 * Streams FILE line by line through the agent's log reader and posts its entries in batches: memory holds one
 * batch, not the file.
 */
export async function importLogFile(
  file: string,
  reader: AuditLogReader,
  send: (entries: AuditLogEntry[]) => Promise<{ imported: number; duplicates: number }>,
  onProgress?: (bytes: number, imported: number) => void,
) {
  const stream = fs.createReadStream(file, { encoding: "utf8" });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let batch: AuditLogEntry[] = [];
  let imported = 0;
  let duplicates = 0;
  let entries = 0;
  const flush = async () => {
    if (!batch.length) return;
    const answer = await send(batch);
    imported += answer.imported;
    duplicates += answer.duplicates;
    batch = [];
    onProgress?.(stream.bytesRead, imported);
  };
  for await (const line of lines) {
    const entry = reader.push(line);
    if (!entry) continue;
    entries++;
    batch.push(entry);
    if (batch.length >= IMPORT_BATCH) await flush();
  }
  reader.end();
  await flush();
  return { entries, imported, duplicates, malformed: reader.malformed };
}

export const auditVerb: Verb = {
  name: "audit",
  summary: "verify the audit log's hash chain; import an agent's permission log",
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "import") {
      const { values, positionals } = parseFlags(
        rest,
        { workspace: { type: "string" }, session: { type: "string" }, agent: { type: "string" } },
        true,
      );
      if (positionals.length !== 1) throw new ValidationError(`name one FILE (${LOGS})`);
      if (!values.workspace) throw new ValidationError("--workspace DIR is required");
      const file = path.resolve(positionals[0]!);
      let size: number;
      try {
        size = fs.statSync(file).size;
      } catch {
        throw new NotFoundError(`cannot read ${file}`);
      }
      const workspace = path.resolve(values.workspace);
      const agent = values.agent ?? AUDIT_LOG_AGENTS[0];
      const log = await auditLogOf(agent);
      const bar = size > 256 * 1024 ? progress(size) : undefined;
      const report = await importLogFile(
        file,
        log.reader(),
        (entries) =>
          callServer<{ imported: number; duplicates: number }>("POST", "/api/v1/audit/import", {
            workspace,
            source: agent,
            session: values.session?.trim() || path.basename(path.dirname(file)),
            entries,
          }),
        bar,
      );
      if (bar) process.stderr.write(process.stderr.isTTY ? "\n" : "");
      for (const m of report.malformed)
        process.stderr.write(`${file}:${m.line}: skipped malformed entry: ${m.reason}\n`);
      process.stdout.write(
        `imported ${report.imported} of ${report.entries} entries (${report.duplicates} already in the log, ${report.malformed.length} malformed)\n`,
      );
      return 0;
    }
    if (sub !== "verify") throw new ValidationError(sub ? `unknown subcommand "${sub}"` : "missing subcommand");
    const { values, positionals } = parseFlags(rest, { json: { type: "boolean" } }, true);
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    const report = await callServer<VerifyAnswer>("POST", "/api/v1/audit/verify", {});
    if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
    process.stdout.write(`${report.line}\n`);
    return report.intact ? 0 : 1;
  },
};
