import { ValidationError } from "@/lib/errors";
import { AGENT_LIST, STORE_AGENTS } from "@/lib/agents";
import { storesOf } from "@/lib/agents/registry";
import { describeWrite, parseAgentFlag, storePathsFromFlags } from "../store-support";
import { sweepStoreFolders } from "@/lib/stores/sweep-store-folders";
import { parseFlags, type Verb } from "../verb";
import { recordStoreWrite } from "../record-store-write";

/** The files `--file` picks from, per agent (the first is the default). */
function fileHelp(): string {
  return AGENT_LIST.flatMap((a) =>
    "addFiles" in a ? [`${a.id} ${a.addFiles.map((f) => f.file).join(" or ")}`] : [],
  ).join("; ");
}

const usage = `Usage: cockpit add --workspace DIR --agent A --scope workspace|global --action allow|ask|deny --rule TEXT [--file settings.local.json] [--dry-run]

  Add an explicitly authored rule to a workspace or global store (the file and its folder are
  created when missing). Global rules affect every project.

  --agent A        ${STORE_AGENTS.join(" | ")}
  --rule TEXT      the rule as the agent writes it:
${AGENT_LIST.flatMap((a) => ("ruleExample" in a ? [`                     ${a.id}: ${a.ruleExample}`] : [])).join("\n")}
  --file NAME      workspace scope, agents with several files: ${fileHelp()}
  --dry-run        show the file and line that would change; write nothing

When the cockpit is running, it records the change in its audit log (entry.added).`;

export const addVerb: Verb = {
  name: "add",
  summary: "add a workspace or global rule to a store",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        workspace: { type: "string" },
        agent: { type: "string" },
        scope: { type: "string" },
        action: { type: "string" },
        rule: { type: "string" },
        file: { type: "string" },
        version: { type: "string" },
        "dry-run": { type: "boolean" },
      },
      true,
    );
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    if (values.scope !== "workspace" && values.scope !== "global")
      throw new ValidationError("--scope must be workspace or global");
    if (values.action !== "allow" && values.action !== "ask" && values.action !== "deny")
      throw new ValidationError("--action must be allow, ask or deny");
    if (!values.rule) throw new ValidationError("--rule TEXT is required");
    const agent = parseAgentFlag(values.agent, true)!;
    const paths = storePathsFromFlags(values.workspace);
    await sweepStoreFolders(paths);
    const result = await (
      await storesOf(agent)
    ).add({
      ...paths,
      scope: values.scope,
      action: values.action,
      rule: values.rule,
      file: values.file,
      expectedVersion: values.version,
      dryRun: values["dry-run"],
    });
    if (result.unchanged)
      process.stdout.write(
        `already present in ${result.store} at line ${result.after.line}; nothing written (id ${result.id})\n`,
      );
    else {
      process.stdout.write(describeWrite("added", result) + `  id: ${result.id}\n`);
      await recordStoreWrite({
        workspace: paths.workspace,
        change: "entry.added",
        entryId: result.id,
        entryAction: values.action,
        rule: values.rule,
        result,
      });
    }
    return 0;
  },
};
