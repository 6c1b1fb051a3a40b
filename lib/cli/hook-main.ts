import { hookVerb } from "./verbs/hook";
import { UsageError } from "./verb";

/**
 * `cockpit hook …` on its own: agents start it on every tool call, so this entry (bundled apart as
 * dist/cli/hook.mjs) loads only the hook bridge: no database, engine, stores or parsers.
 * Same dispatch as `main` for this one verb.
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name !== hookVerb.name) throw new Error(`hook entry called for "${name}"`);
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(hookVerb.usage + "\n");
    return 0;
  }
  try {
    return await hookVerb.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`cockpit hook: ${error.message}\n\n${hookVerb.usage}\n`);
      return 2;
    }
    process.stderr.write(`cockpit hook: ${(error as Error).message}\n`);
    return 1;
  }
}
