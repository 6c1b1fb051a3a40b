import { describeWrite, storePathsFromFlags } from "../store-support";
import { narrowEntry } from "@/lib/stores/narrow-entry";
import { sweepStoreFolders } from "@/lib/stores/sweep-store-folders";
import { parseFlags, UsageError, type Verb } from "../verb";

const usage = `Usage: cockpit narrow ID --to SPEC --workspace DIR [--version SHA256] [--dry-run]

  Replace an entry in place with a narrower one. The policy engine must prove the new entry
  authorises a subset of the old; otherwise nothing changes ("cannot prove narrower: …").

  SPEC for JSON rules: allow | ask | deny, or the new rule text, e.g. 'Shell(git status:*)'.
  SPEC for mevedel: a full form '("Bash" :pattern "git log*" :action allow)', or modifiers:
    allow|ask|deny  pattern:"V"  path:P  domain:D  name:N       (rules)
    exact  read  path:P                                         (resource grants)
    network:off  drop-fs:P  fs-exact:P  fs-read:P               (profiles)

  --workspace DIR   project folder (default: the current folder)
  --dry-run         show the file and line that would change; write nothing
  --version SHA256  refuse unless the store still has this version`;

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
    if (positionals.length !== 1) throw new UsageError("narrow takes exactly one entry id");
    if (!values.to) throw new UsageError("--to SPEC is required");
    const paths = storePathsFromFlags(values.workspace);
    await sweepStoreFolders(paths);
    const result = await narrowEntry({
      ...paths,
      id: positionals[0]!,
      to: values.to,
      expectedVersion: values.version,
      dryRun: values["dry-run"],
    });
    process.stdout.write(describeWrite("narrowed", result));
    return 0;
  },
};
