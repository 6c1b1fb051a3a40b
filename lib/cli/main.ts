import { CockpitEnv } from "@/lib/config/env";
import { configureStoreReads } from "@/lib/stores/read-store";
import { reportFailure } from "./exit-codes";
import type { Verb } from "./verb";
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
    return reportFailure(verb, error);
  }
}
