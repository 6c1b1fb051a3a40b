import { AppError } from "@/lib/errors";
import { revealHidden } from "@/lib/text/reveal";

/**
 * The CLI's exit code for each error `code` (lib/errors): the one place the CLI maps errors. 2 = bad input, printed
 * with the verb's usage; 1 = a refusal or a failure, one line. An error the cockpit server sent back maps by its
 * `code` the same way. README.md ("Exit codes") documents both.
 */
export const EXIT_CODES: Readonly<Record<string, 1 | 2>> = {
  invalid_request: 2,
  forbidden: 1,
  not_found: 1,
  conflict: 1,
  gone: 1,
  unprocessable: 1,
  too_many_requests: 1,
  unavailable: 1,
  internal: 1,
};

/** The exit code of a typed error, by its `code`; null for anything untyped (a crash). */
export function exitCodeOf(error: unknown): number | null {
  return error instanceof AppError ? (EXIT_CODES[error.code] ?? 1) : null;
}

/**
 * How a verb's failure reaches the terminal; returns the exit code. A typed error is one line (plus the verb's
 * usage for bad input, unless the verb's errors are one line); node:util parseArgs' errors (unknown or missing flags) are bad input; anything else is a
 * crash: its stack, exit 1.
 */
export function reportFailure(
  verb: { name: string; usage: string; oneLineErrors?: boolean },
  error: unknown,
  write: (text: string) => void = (text) => void process.stderr.write(text),
): number {
  const parseArgs = (error as { code?: unknown })?.code;
  const exit =
    exitCodeOf(error) ?? (typeof parseArgs === "string" && parseArgs.startsWith("ERR_PARSE_ARGS") ? 2 : null);
  if (exit === null) {
    write(`cockpit ${verb.name}: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
  write(
    `cockpit ${verb.name}: ${revealHidden((error as Error).message)}\n${exit === 2 && !verb.oneLineErrors ? `\n${verb.usage}\n` : ""}`,
  );
  return exit;
}
