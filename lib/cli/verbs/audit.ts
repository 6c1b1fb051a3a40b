import { callServer } from "../server-client";
import { parseFlags, UsageError, type Verb } from "../verb";

const usage = `Usage: cockpit audit verify [--json]

  verify   recompute the audit log's hash chain and check every signed checkpoint;
           the last line is "intact: N events" (exit 0) or "broken at seq N: why" (exit 1)

Needs the running cockpit (it works with the embedded database and with PostgreSQL).`;

interface VerifyAnswer {
  intact: boolean;
  line: string;
}

export const auditVerb: Verb = {
  name: "audit",
  summary: "verify the audit log's hash chain and signed checkpoints",
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== "verify") throw new UsageError(sub ? `unknown subcommand "${sub}"` : "missing subcommand");
    const { values, positionals } = parseFlags(rest, { json: { type: "boolean" } }, true);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const report = await callServer<VerifyAnswer>("POST", "/api/v1/audit/verify", {});
    if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
    process.stdout.write(`${report.line}\n`);
    return report.intact ? 0 : 1;
  },
};
