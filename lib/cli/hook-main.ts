import { hookVerb } from "./verbs/hook";
import { AppError } from "@/lib/errors";
import { exitCodeOf, reportFailure } from "./exit-codes";

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
    // An agent shows what the hook prints: one line, never a stack.
    const shown = exitCodeOf(error) === null ? new AppError((error as Error)?.message ?? String(error)) : error;
    return reportFailure(hookVerb, shown);
  }
}
