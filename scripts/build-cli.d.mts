export const CLI_DIST: string;
export const HOOK_BUNDLE_AGENTS: string[];
export const ENTRIES: Record<"main" | "hook", string>;
export interface CliManifest {
  builtAt: number;
  entries: Record<string, { file: string; inputs: string[] }>;
}
/** One output file of a bundle (esbuild's metafile): its sources, what it imports, and for a lazily loaded chunk
 * the source it stands for. */
export interface CliOutput {
  inputs: string[];
  imports: { path: string; kind: string }[];
  entryPoint?: string;
}
export function buildCli(root?: string, out?: string): Promise<CliManifest & { outputs: Record<string, CliOutput> }>;
export function freshBundle(entry: "main" | "hook", root?: string, dist?: string): string | null;
