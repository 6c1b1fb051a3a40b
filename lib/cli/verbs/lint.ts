import { ValidationError } from "@/lib/errors";
import { bySeverity, FINDING_KINDS, lintWorkspace, reachesThreshold, type Finding, type Severity } from "@/lib/hygiene";
import { agentLintFindings } from "@/lib/agents/agent-lint";
import { storePathsFromFlags } from "../store-support";
import { loadLintItems } from "@/lib/stores/load-lint-items";
import type { Entry } from "@/lib/stores/types";
import { parseFlags, type Verb } from "../verb";

const usage = `Usage: cockpit lint --workspace DIR [--json] [--fail-on warning|error]

  Rule hygiene for every agent and scope of a workspace: duplicate, covered, shadowed, conflicting,
  ineffective, over-broad, one-off and dead rules. Reads the files now; works without the server.

  --workspace DIR   project folder (default: the current folder); global stores come from $HOME
  --json            print {"findings":[{"kind","severity","entry","by"?,"message"}]}
  --fail-on LEVEL   exit 1 when a finding has this severity or worse (default: error)

Severities: error = over-broad, a rules file that makes its agent ignore every rule; warning = shadowed allow, conflicting, ineffective;
info = duplicate, covered, moot ask, one-off, dead. Entry ids are those of \`cockpit entries\`.`;

const LEVELS: Severity[] = ["warning", "error"];

function human(findings: Finding[], entries: Map<string, Entry>, notes: string[], total: number): string {
  const out: string[] = [];
  for (const kind of FINDING_KINDS) {
    const mine = findings.filter((f) => f.kind === kind);
    if (!mine.length) continue;
    out.push(`${kind.toUpperCase()} (${mine.length}, ${mine[0].severity})`);
    for (const f of mine) {
      const e = entries.get(f.entry);
      out.push(`  ${f.entry}  ${e ? `${e.store.path}:${e.line}` : ""}`);
      out.push(`    ${f.message}`);
    }
    out.push("");
  }
  const counts = FINDING_KINDS.map((k) => [k, findings.filter((f) => f.kind === k).length] as const).filter(
    ([, n]) => n,
  );
  out.push(
    `${total} ${total === 1 ? "entry" : "entries"}: ${counts.length ? counts.map(([k, n]) => `${n} ${k}`).join(", ") : "no findings"}`,
  );
  for (const n of notes) out.push(`note: ${n}`);
  return out.join("\n") + "\n";
}

export const lintVerb: Verb = {
  name: "lint",
  summary: "find duplicate, covered, shadowed, over-broad and other unhealthy rules",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { workspace: { type: "string" }, json: { type: "boolean" }, "fail-on": { type: "string" } },
      true,
    );
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    const failOn = (values["fail-on"] ?? "error") as Severity;
    if (!LEVELS.includes(failOn)) throw new ValidationError(`--fail-on must be warning or error (got "${failOn}")`);
    const paths = storePathsFromFlags(values.workspace);
    const { items, stores } = await loadLintItems(paths);
    const lint = lintWorkspace({ workspace: paths.workspace, home: paths.home, items });
    // Agents that lint their own rules (their semantics, their entries): the same ids as `cockpit entries`.
    const own = await agentLintFindings(paths);
    const findings = bySeverity([...lint.findings, ...own.findings]);
    const notes = lint.notes;
    for (const s of stores.filter((x) => !x.valid))
      process.stderr.write(`cockpit lint: ${s.path} is invalid and was not linted (${s.error})\n`);
    if (values.json) {
      process.stdout.write(
        JSON.stringify({
          findings: findings.map((f) => ({
            kind: f.kind,
            severity: f.severity,
            entry: f.entry,
            ...(f.by ? { by: f.by } : {}),
            message: f.message,
          })),
        }) + "\n",
      );
      for (const n of notes) process.stderr.write(`cockpit lint: ${n}\n`);
    } else
      process.stdout.write(
        human(findings, new Map(items.map((i) => [i.entry.id, i.entry])), notes, items.length + own.entries),
      );
    return reachesThreshold(findings, failOn) ? 1 : 0;
  },
};
