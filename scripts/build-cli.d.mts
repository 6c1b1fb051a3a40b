export const CLI_DIST: string;
export const ENTRIES: Record<"main" | "hook", string>;
export interface CliManifest {
  builtAt: number;
  entries: Record<string, { file: string; inputs: string[] }>;
}
export function buildCli(root?: string, out?: string): Promise<CliManifest>;
export function freshBundle(entry: "main" | "hook", root?: string, dist?: string): string | null;
