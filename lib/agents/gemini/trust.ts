import path from "node:path";
import { parse as parseJsonc, type ParseError } from "jsonc-parser";
import { isSubpath } from "./host";

/**
 * Gemini CLI's folder trust (facts from @google/gemini-cli-core 0.61.0 utils/trust.ts and
 * packages/cli/src/config/trustedFolders.ts). `~/.gemini/trustedFolders.json` maps paths to TRUST_FOLDER,
 * TRUST_PARENT (the rule's parent directory) or DO_NOT_TRUST; the longest matching rule path wins. A folder no
 * rule covers is untrusted while folder trust is on (the default). An untrusted folder ignores the workspace's
 * settings, forces the default approval mode and makes every git command ask. Pure.
 */

export type TrustLevel = "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST";
const LEVELS = new Set<string>(["TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"]);

export interface TrustRule {
  path: string;
  level: TrustLevel;
}

export interface TrustFile {
  rules: TrustRule[];
  /** A broken file stops Gemini at start-up (FatalConfigError); the cockpit reports it and treats folders as untrusted. */
  error?: string;
}

/** Parse `trustedFolders.json` (comments allowed, as Gemini strips them); unknown levels are ignored as Gemini does. */
export function parseTrustedFolders(text: string): TrustFile {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: false });
  if (errors.length > 0) return { rules: [], error: `not valid JSON (offset ${errors[0].offset})` };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { rules: [], error: "Trusted folders file is not a valid JSON object." };
  }
  const rules: TrustRule[] = [];
  for (const [p, level] of Object.entries(value as Record<string, unknown>)) {
    if (typeof level === "string" && LEVELS.has(level))
      rules.push({ path: path.resolve(p), level: level as TrustLevel });
  }
  return { rules };
}

export interface TrustInput {
  file: TrustFile;
  workspace: string;
  /** `security.folderTrust.enabled` (default true). */
  folderTrustEnabled?: boolean;
  /** `GEMINI_CLI_TRUST_WORKSPACE` / `GEMINI_RESTRICTED_MODE` from Gemini's environment. */
  env?: Record<string, string | undefined>;
  /** Resolve symlinks as Gemini does (realpath when the path exists). */
  realpath?: (p: string) => string;
  platform?: "linux" | "darwin";
}

export interface TrustVerdict {
  trusted: boolean;
  source: "env" | "file" | "disabled" | "default";
  /** The deciding rule of trustedFolders.json, when one decided. */
  rule?: TrustRule;
  reason: string;
}

/** Is the workspace trusted? (`checkPathTrust` + `isPathTrusted`; the IDE's trust is not modelled.) */
export function workspaceTrust(input: TrustInput): TrustVerdict {
  const env = input.env ?? {};
  if (env.GEMINI_RESTRICTED_MODE === "true" || env.GEMINI_CLI_TRUST_WORKSPACE === "false") {
    return {
      trusted: false,
      source: "env",
      reason: "GEMINI_CLI_TRUST_WORKSPACE=false (or restricted mode) in Gemini's environment",
    };
  }
  if (env.GEMINI_CLI_TRUST_WORKSPACE === "true") {
    return { trusted: true, source: "env", reason: "GEMINI_CLI_TRUST_WORKSPACE=true in Gemini's environment" };
  }
  if (input.folderTrustEnabled === false)
    return { trusted: true, source: "disabled", reason: "folder trust is off (security.folderTrust.enabled = false)" };
  if (input.file.error)
    return { trusted: false, source: "default", reason: `trustedFolders.json is invalid: ${input.file.error}` };
  const host = { platform: input.platform ?? "linux" };
  const real = input.realpath ?? ((p: string) => p);
  const norm = (p: string) => (host.platform === "darwin" ? path.resolve(p).toLowerCase() : path.resolve(p));
  const location = norm(real(input.workspace));
  let best: TrustRule | undefined;
  let bestLen = -1;
  for (const rule of input.file.rules) {
    const effective = rule.level === "TRUST_PARENT" ? path.dirname(rule.path) : rule.path;
    if (isSubpath(host, norm(real(effective)), location) && rule.path.length > bestLen) {
      bestLen = rule.path.length;
      best = rule;
    }
  }
  if (!best) return { trusted: false, source: "default", reason: "no entry of trustedFolders.json covers this folder" };
  const trusted = best.level !== "DO_NOT_TRUST";
  return { trusted, source: "file", rule: best, reason: `trustedFolders.json: ${best.path} is ${best.level}` };
}
