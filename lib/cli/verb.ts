import { ValidationError } from "@/lib/errors";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** One CLI verb: its name, one-line summary, full usage text and runner. */
export interface Verb {
  name: string;
  summary: string;
  usage: string;
  /**
   * Returns the process exit code. Throw a lib/errors error for anything else: its `code` gives the exit code
   * (lib/cli/exit-codes.ts); a ValidationError (bad flags or input) is printed with this usage.
   */
  run(argv: string[]): Promise<number>;
  /** Bad input is reported in one line, without the usage (`decide`: scripts read its stderr; documented). */
  oneLineErrors?: boolean;
}

/** Strict flag parsing shared by verbs: unknown flags are usage errors. */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: T,
  allowPositionals = false,
) {
  return parseArgs({ args: argv, options, allowPositionals, strict: true });
}
