import { CockpitEnv } from "@/lib/config/env";
import { configureStoreReads } from "@/lib/stores/read-store";
import { revealHidden } from "@/lib/text/reveal";
import { cliFailure } from "./store-support";
import { CliError, UsageError, type Verb } from "./verb";
import { verbs } from "./verbs/index";

function topUsage(): string {
  const width = Math.max(...verbs.map((v) => v.name.length), 8);
  const lines = verbs.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`);
  return [
    "Usage: cockpit <verb> [options]",
    "",
    "Verbs:",
    ...lines,
    "",
    "Run `cockpit <verb> --help` for a verb's options.",
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    const helpFor = name === "help" ? verbs.find((v) => v.name === rest[0]) : undefined;
    process.stdout.write((helpFor ? helpFor.usage : topUsage()) + "\n");
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    const { version } = await import("../../package.json", { with: { type: "json" } }).then((m) => m.default);
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const verb: Verb | undefined = verbs.find((v) => v.name === name);
  if (!verb) {
    process.stderr.write(`cockpit: unknown verb "${name}"\n\n${topUsage()}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(verb.usage + "\n");
    return 0;
  }
  const maxStore = CockpitEnv.shape.COCKPIT_MAX_STORE_BYTES.safeParse(process.env.COCKPIT_MAX_STORE_BYTES);
  if (!maxStore.success) {
    process.stderr.write(`cockpit: COCKPIT_MAX_STORE_BYTES: ${maxStore.error.issues[0]?.message}\n`);
    return 2;
  }
  configureStoreReads({ maxBytes: maxStore.data });
  try {
    return await verb.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`cockpit ${verb.name}: ${revealHidden(error.message)}\n\n${verb.usage}\n`);
      return 2;
    }
    if (error instanceof CliError) {
      process.stderr.write(`cockpit ${verb.name}: ${revealHidden(error.message)}\n`);
      return error.exitCode;
    }
    // Store refusals (changed on disk, symlink, invalid file, not narrower…) are one-line reasons.
    const failure = cliFailure(error);
    if (failure) {
      process.stderr.write(
        `cockpit ${verb.name}: ${revealHidden(failure.message)}\n${failure.usage ? `\n${verb.usage}\n` : ""}`,
      );
      return failure.usage ? 2 : 1;
    }
    // node:util parseArgs throws TypeErrors with codes for unknown/missing flags.
    const code = (error as { code?: string }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`cockpit ${verb.name}: ${(error as Error).message}\n\n${verb.usage}\n`);
      return 2;
    }
    process.stderr.write(`cockpit ${verb.name}: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
