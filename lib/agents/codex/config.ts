/**
 * Codex `config.toml` as the cockpit reads it: `approval_policy`, `sandbox_mode`, `profile` / `[profiles.x]`,
 * `[projects."<path>"] trust_level`, `project_root_markers`, `[features] codex_hooks`; and how Codex resolves the
 * modes and trust (core/src/config/mod.rs approval default, config/src/config_toml.rs derive_sandbox_policy and
 * get_active_project, core/src/config_loader/mod.rs ProjectTrustContext). Pure: texts and paths in.
 */
import { getStaticTOMLValue, parseTOML } from "toml-eslint-parser";
import { z } from "zod";
import { ApprovalPolicy, SandboxMode } from "./decide";

export type TrustLevel = "trusted" | "untrusted";

const ModeFields = z.object({
  approval_policy: ApprovalPolicy.optional(),
  sandbox_mode: SandboxMode.exclude(["external-sandbox"]).optional(),
});

const ConfigToml = ModeFields.extend({
  profile: z.string().optional(),
  profiles: z.record(z.string(), ModeFields.loose()).optional(),
  projects: z
    .record(z.string(), z.object({ trust_level: z.enum(["trusted", "untrusted"]).optional() }).loose())
    .optional(),
  project_root_markers: z.array(z.string()).optional(),
  features: z.object({ hooks: z.boolean().optional(), codex_hooks: z.boolean().optional() }).loose().optional(),
}).loose();
export type ConfigToml = z.infer<typeof ConfigToml>;

export type ParsedConfig = { ok: true; config: ConfigToml } | { ok: false; line: number; message: string };

/** Parse a config.toml; a syntax or value error is reported with its line, never thrown. */
export function parseCodexConfig(text: string): ParsedConfig {
  let value: unknown;
  try {
    value = getStaticTOMLValue(parseTOML(text));
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number };
    return { ok: false, line: err.lineNumber ?? 1, message: err.message ?? "invalid TOML" };
  }
  const parsed = ConfigToml.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.join(".");
    return { ok: false, line: lineOfKey(text, issue.path.map(String)) ?? 1, message: `${key}: ${issue.message}` };
  }
  return { ok: true, config: parsed.data };
}

function lineOfKey(text: string, path: string[]): number | undefined {
  const last = path.filter((p) => !/^\d+$/.test(p)).pop();
  if (!last) return undefined;
  const i = text.split("\n").findIndex((l) => l.trimStart().startsWith(last));
  return i >= 0 ? i + 1 : undefined;
}

/** Trust of one folder: its own keys, then the project root's, then the git repo root's (decision_for_dir). */
export function trustForDir(
  projects: ConfigToml["projects"],
  keys: { dir: readonly string[]; projectRoot: readonly string[]; repoRoot?: readonly string[] },
): { level?: TrustLevel; key?: string } {
  for (const group of [keys.dir, keys.projectRoot, keys.repoRoot ?? []]) {
    for (const k of group) {
      const level = projects?.[k]?.trust_level;
      if (level) return { level, key: k };
    }
  }
  return {};
}

/** The active project for mode defaults: cwd, then the repo root (config_toml.rs get_active_project). */
export function activeProjectTrust(
  projects: ConfigToml["projects"],
  keys: { cwd: readonly string[]; repoRoot?: readonly string[] },
): TrustLevel | undefined {
  for (const group of [keys.cwd, keys.repoRoot ?? []])
    for (const k of group) {
      const p = projects?.[k];
      // A [projects."x"] table without trust_level is an active project without a trust decision.
      if (p) return p.trust_level;
    }
  return undefined;
}

export interface ModeInputs {
  /** Layers lowest precedence first: user config, then trusted project `.codex/config.toml` from root to cwd. */
  layers: readonly ConfigToml[];
  /** Trust of the active project (activeProjectTrust). */
  activeTrust?: TrustLevel;
  /** Command-line overrides (`--ask-for-approval`, `--sandbox`, `--profile`). */
  overrides?: { approvalPolicy?: ApprovalPolicy; sandboxMode?: z.infer<typeof SandboxMode>; profile?: string };
}

export interface ResolvedModes {
  approvalPolicy: ApprovalPolicy;
  sandboxMode: z.infer<typeof SandboxMode>;
  profile?: string;
  /** Where each value came from, for --explain. */
  from: { approvalPolicy: string; sandboxMode: string };
}

/** Resolve approval policy and sandbox mode the way Codex does when it starts in a folder. */
export function resolveModes(input: ModeInputs): ResolvedModes {
  const merged: ConfigToml = {};
  for (const layer of input.layers) {
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) continue;
      const prev = (merged as Record<string, unknown>)[k];
      (merged as Record<string, unknown>)[k] =
        prev && typeof prev === "object" && !Array.isArray(prev) && typeof v === "object" && !Array.isArray(v)
          ? { ...prev, ...v }
          : v;
    }
  }
  const profileName = input.overrides?.profile ?? merged.profile;
  const profile = profileName ? merged.profiles?.[profileName] : undefined;
  const trust = input.activeTrust;
  let approvalPolicy: ApprovalPolicy;
  let apFrom: string;
  if (input.overrides?.approvalPolicy) [approvalPolicy, apFrom] = [input.overrides.approvalPolicy, "override"];
  else if (profile?.approval_policy) [approvalPolicy, apFrom] = [profile.approval_policy, `profile ${profileName}`];
  else if (merged.approval_policy) [approvalPolicy, apFrom] = [merged.approval_policy, "config.toml"];
  else if (trust === "untrusted") [approvalPolicy, apFrom] = ["untrusted", "default for an untrusted project"];
  else [approvalPolicy, apFrom] = ["on-request", trust === "trusted" ? "default for a trusted project" : "default"];
  let sandboxMode: z.infer<typeof SandboxMode>;
  let sbFrom: string;
  if (input.overrides?.sandboxMode) [sandboxMode, sbFrom] = [input.overrides.sandboxMode, "override"];
  else if (profile?.sandbox_mode) [sandboxMode, sbFrom] = [profile.sandbox_mode, `profile ${profileName}`];
  else if (merged.sandbox_mode) [sandboxMode, sbFrom] = [merged.sandbox_mode, "config.toml"];
  else if (trust) [sandboxMode, sbFrom] = ["workspace-write", `default for a project marked ${trust}`];
  else [sandboxMode, sbFrom] = ["read-only", "default"];
  return {
    approvalPolicy,
    sandboxMode,
    ...(profileName ? { profile: profileName } : {}),
    from: { approvalPolicy: apFrom, sandboxMode: sbFrom },
  };
}

/**
 * Whether Codex runs hooks. In the April 2026 source `codex_hooks` was off by default; Codex 0.169.0 lists the
 * feature as `hooks`, stable and on (`codex features list`), with `codex_hooks` kept as a legacy alias.
 */
export function hooksEnabled(config: ConfigToml): boolean {
  return (config.features?.hooks ?? config.features?.codex_hooks) !== false;
}
