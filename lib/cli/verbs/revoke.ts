import { ValidationError } from "@/lib/errors";
import { describeWrite, storePathsFromFlags } from "../store-support";
import { editEntry } from "@/lib/agents/all-stores";
import { sweepStoreFolders } from "@/lib/stores/sweep-store-folders";
import { parseFlags, type Verb } from "../verb";
import { recordStoreWrite } from "../record-store-write";

const usage = `Usage: cockpit revoke ID --workspace DIR [--version SHA256] [--dry-run]

  Remove one entry (an id from \`cockpit entries\`) from the file that holds it. Only that entry's
  text changes; the file is replaced atomically. Revoking a global entry affects every project.

  --workspace DIR   project folder (default: the current folder)
  --dry-run         show the file and line that would change; write nothing
  --version SHA256  refuse unless the store still has this version (from \`entries --json\`)

Refusals (changed on disk, invalid or read-only store, symlink in the path, Emacs lock) exit 1.
When the cockpit is running, it records the change in its audit log (entry.revoked, with the
file's old and new version); otherwise a note on stderr says the change has no audit row.`;

export const revokeVerb: Verb = {
  name: "revoke",
  summary: "remove a rule or grant from its store",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { workspace: { type: "string" }, version: { type: "string" }, "dry-run": { type: "boolean" } },
      true,
    );
    if (positionals.length !== 1) throw new ValidationError("revoke takes exactly one entry id");
    const paths = storePathsFromFlags(values.workspace);
    await sweepStoreFolders(paths);
    const target = { ...paths, id: positionals[0]!, expectedVersion: values.version, dryRun: values["dry-run"] };
    const result = await editEntry(target, (stores) => stores.revoke(target));
    process.stdout.write(describeWrite("revoked", result));
    await recordStoreWrite({
      workspace: paths.workspace,
      change: "entry.revoked",
      entryId: target.id,
      entryAction: result.entry?.action ?? "unknown",
      rule: result.entry?.rule ?? result.before.text,
      result,
    });
    return 0;
  },
};
