import { parseArgs, type ParseArgsConfig } from "node:util";

/** One CLI verb: its name, one-line summary, full usage text and runner. */
export interface Verb {
  name: string;
  summary: string;
  usage: string;
  /** Returns the process exit code. Throw UsageError for bad flags. */
  run(argv: string[]): Promise<number>;
}

/** Bad flags or arguments: printed with the verb's usage, exit 2. */
export class UsageError extends Error {}

/** A refusal or failure the user should read as one line: exit 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Strict flag parsing shared by verbs: unknown flags are usage errors. */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: T,
  allowPositionals = false,
) {
  return parseArgs({ args: argv, options, allowPositionals, strict: true });
}
