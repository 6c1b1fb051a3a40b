import { ValidationError } from "@/lib/errors";
import { describeWrite, storePathsFromFlags } from "../store-support";
import { AGENT_LIST } from "@/lib/agents";
import { editEntry, listAllEntries } from "@/lib/agents/all-stores";
import { sweepStoreFolders } from "@/lib/stores/sweep-store-folders";
import { parseFlags, type Verb } from "../verb";
import { recordStoreWrite } from "../record-store-write";

/** SPEC per agent, from the catalogue. */
function specHelp(): string {
  return AGENT_LIST.flatMap((a) => ("narrowHelp" in a ? [`  SPEC for ${a.id}: ${a.narrowHelp}`] : [])).join("\n");
}

const usage = `Usage: cockpit narrow ID --to SPEC --workspace DIR [--version SHA256] [--dry-run]

  Replace an entry in place with a narrower one. The policy engine must prove the new entry
  authorises a subset of the old; otherwise nothing changes ("cannot prove narrower: …").

${specHelp()}

  --workspace DIR   project folder (default: the current folder)
  --dry-run         show the file and line that would change; write nothing
  --version SHA256  refuse unless the store still has this version

When the cockpit is running, it records the change in its audit log (entry.narrowed).`;

export const narrowVerb: Verb = {
  name: "narrow",
  summary: "replace a rule or grant with a provably narrower one",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        workspace: { type: "string" },
        to: { type: "string" },
        version: { type: "string" },
        "dry-run": { type: "boolean" },
      },
      true,
    );
    if (positionals.length !== 1) throw new ValidationError("narrow takes exactly one entry id");
    if (!values.to) throw new ValidationError("--to SPEC is required");
    const paths = storePathsFromFlags(values.workspace);
    await sweepStoreFolders(paths);
    const target = {
      ...paths,
      id: positionals[0]!,
      to: values.to,
      expectedVersion: values.version,
      dryRun: values["dry-run"],
    };
    // The entry as listed before the write: its action goes in the audit row.
    const listed = (await listAllEntries(paths)).entries.find((e) => e.id === target.id);
    const result = await editEntry(target, (stores) => stores.narrow(target));
    const entry = result.entry ?? listed;
    process.stdout.write(describeWrite("narrowed", result));
    await recordStoreWrite({
      workspace: paths.workspace,
      change: "entry.narrowed",
      entryId: target.id,
      entryAction: entry?.action ?? "unknown",
      rule: result.from,
      to: result.to,
      result,
    });
    return 0;
  },
};
