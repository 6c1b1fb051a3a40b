import fs from "node:fs/promises";
import { overlaidText } from "@/lib/stores/overlay";
import path from "node:path";
import { parse as parseJsonc, type ParseError } from "jsonc-parser";
import { builtinPolicyFiles, BUILTIN_POLICY_DIR } from "../builtin";
import {
  alwaysAllowDisabled,
  mergePolicySettings,
  PolicySettingsSchema,
  settingsRules,
  type SettingsLayer,
  type SettingsScope,
} from "../settings-rules";
import { parsePolicyFile, type RuleTable } from "../toml-policy";
import { parseTrustedFolders, workspaceTrust, type TrustRule, type TrustVerdict } from "../trust";
import type { GeminiChecker, GeminiRule, PolicyFileError, TierName } from "../types";

/**
 * Reads Gemini CLI's permission stores from disk: policy files by tier, the settings files that yield rules,
 * and trustedFolders.json. Every location comes from {@link GeminiPaths}, so tests and the demo point it at a
 * temporary home. Reading never writes; a broken file is reported and drops only itself.
 */

export interface GeminiPaths {
  /** The user's home (Gemini's `~/.gemini` lives under it). */
  home: string;
  /** The workspace Gemini runs in. */
  cwd: string;
  /** `/etc/gemini-cli` (macOS `/Library/Application Support/GeminiCli`). */
  systemDir?: string;
  /**
   * Gemini's environment: GEMINI_CLI_HOME, GEMINI_CLI_SYSTEM_SETTINGS_PATH, GEMINI_CLI_SYSTEM_DEFAULTS_PATH,
   * GEMINI_CLI_TRUSTED_FOLDERS_PATH, GEMINI_CLI_TRUST_WORKSPACE.
   */
  env?: Record<string, string | undefined>;
  /** Is the system policy directory secure (root-owned, not group/other-writable)? Default: checked with stat. */
  checkSystemDirSecure?: boolean;
}

export interface PolicyStoreFile {
  path: string;
  tier: TierName;
  /** Gemini reads this file in this version. */
  loaded: boolean;
  /** Why Gemini does not read it (workspace policies disabled, insecure admin directory, untrusted folder…). */
  notLoadedReason?: string;
  readOnly: boolean;
  /** The whole file is dropped (TOML or schema error). */
  invalid: boolean;
  errors: PolicyFileError[];
  rules: GeminiRule[];
  checkers: GeminiChecker[];
  tables: RuleTable[];
  /** Shown on the Rules page next to the file. */
  help?: string;
  extension?: string;
}

export interface SettingsStoreFile {
  scope: SettingsScope;
  path: string;
  exists: boolean;
  /** Gemini reads it (workspace settings only in a trusted folder). */
  loaded: boolean;
  error?: string;
}

export interface GeminiStores {
  files: PolicyStoreFile[];
  settings: SettingsStoreFile[];
  /** The verdict for the folder, the file it came from and every folder rule in it (for listing). */
  trust: TrustVerdict & { file: string; rules: TrustRule[]; error?: string };
  /** Everything Gemini's engine receives, in Gemini's load order (ties keep this order). */
  rules: GeminiRule[];
  checkers: GeminiChecker[];
  disableAlwaysAllow: boolean;
  /** `security.enableConseca`. */
  conseca: boolean;
  /** `general.defaultApprovalMode` (yolo there is ignored, as Gemini ignores it). */
  defaultMode?: string;
  /** `security.disableYoloMode || admin.secureModeEnabled`: Gemini refuses to start in YOLO. */
  yoloDisabled: boolean;
}

/** Gemini keeps workspace policies off (`disableWorkspacePolicies = true` in packages/cli/src/config/policy.ts, 0.61.0). */
export const WORKSPACE_POLICIES_ENABLED = false;

export const AUTO_SAVED_HELP =
  "Gemini rewrites this file whenever you choose “Allow for all future sessions”: it re-serializes it with " +
  "@iarna/toml, so comments and formatting here are lost the next time Gemini saves. The cockpit's own edits keep them.";

export function geminiLocations(p: GeminiPaths) {
  const env = p.env ?? {};
  // Gemini's homedir(): GEMINI_CLI_HOME wins over the OS home (utils/paths.ts).
  const gemini = path.join(env.GEMINI_CLI_HOME ?? p.home, ".gemini");
  const systemDir = p.systemDir ?? "/etc/gemini-cli";
  const systemSettings = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH ?? path.join(systemDir, "settings.json");
  return {
    userPolicies: path.join(gemini, "policies"),
    autoSaved: path.join(gemini, "policies", "auto-saved.toml"),
    workspacePolicies: path.join(p.cwd, ".gemini", "policies"),
    systemPolicies: path.join(systemDir, "policies"),
    extensions: path.join(gemini, "extensions"),
    userSettings: path.join(gemini, "settings.json"),
    workspaceSettings: path.join(p.cwd, ".gemini", "settings.json"),
    systemSettings,
    systemDefaults:
      env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH ?? path.join(path.dirname(systemSettings), "system-defaults.json"),
    trustedFolders: env.GEMINI_CLI_TRUSTED_FOLDERS_PATH ?? path.join(gemini, "trustedFolders.json"),
  };
}

async function readText(file: string): Promise<string | null> {
  // Inside an impact preview, a file the preview "wrote" reads as that content.
  const overlaid = overlaidText(file);
  if (overlaid !== undefined) return overlaid;
  try {
    return await fs.readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw e;
  }
}

/** `.toml` files of a directory in readdir order (what Gemini's loader uses). */
async function tomlFiles(dir: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile() && e.name.endsWith(".toml")).map((e) => path.join(dir, e.name));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return [];
    throw e;
  }
}

async function systemDirSecure(dir: string): Promise<{ secure: boolean; reason?: string }> {
  try {
    const st = await fs.stat(dir);
    if (!st.isDirectory()) return { secure: false, reason: "not a directory" };
    const lst = await fs.lstat(dir);
    if (lst.isSymbolicLink() && lst.uid !== 0) return { secure: false, reason: "a symlink not owned by root" };
    if (st.uid !== 0) return { secure: false, reason: `not owned by root (uid ${st.uid})` };
    if ((st.mode & 0o022) !== 0) return { secure: false, reason: "writable by group or others" };
    return { secure: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { secure: true };
    return { secure: false, reason: (e as Error).message };
  }
}

async function readPolicyDir(dir: string, tier: TierName, extra: Partial<PolicyStoreFile>): Promise<PolicyStoreFile[]> {
  const out: PolicyStoreFile[] = [];
  for (const file of await tomlFiles(dir)) {
    let content: string | null;
    try {
      content = await readText(file);
    } catch (e) {
      out.push({
        path: file,
        tier,
        loaded: false,
        readOnly: true,
        invalid: true,
        errors: [
          {
            file,
            tier,
            errorType: "file_read",
            severity: "error",
            message: "Failed to read policy file",
            details: (e as Error).message,
          },
        ],
        rules: [],
        checkers: [],
        tables: [],
        ...extra,
      });
      continue;
    }
    if (content === null) continue;
    const parsed = parsePolicyFile({ file, content, tier });
    out.push({
      path: file,
      tier,
      loaded: true,
      readOnly: false,
      invalid: parsed.invalid,
      errors: parsed.errors,
      rules: parsed.rules,
      checkers: parsed.checkers,
      tables: parsed.tables,
      ...extra,
    });
  }
  return out;
}

async function readSettings(
  scope: SettingsScope,
  file: string,
): Promise<{ store: SettingsStoreFile; layer?: SettingsLayer }> {
  const text = await readText(file).catch((e: Error) => {
    throw new Error(`cannot read ${file}: ${e.message}`);
  });
  if (text === null) return { store: { scope, path: file, exists: false, loaded: false } };
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      store: {
        scope,
        path: file,
        exists: true,
        loaded: false,
        error: errors.length ? `not valid JSON (offset ${errors[0].offset})` : "not a JSON object",
      },
    };
  }
  const parsed = PolicySettingsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      store: { scope, path: file, exists: true, loaded: false, error: `${issue.path.join(".")}: ${issue.message}` },
    };
  }
  return { store: { scope, path: file, exists: true, loaded: true }, layer: { scope, file, settings: parsed.data } };
}

/** Read every Gemini store for one workspace, in Gemini's load order. */
export async function loadGeminiStores(p: GeminiPaths, opts: { interactive?: boolean } = {}): Promise<GeminiStores> {
  const loc = geminiLocations(p);
  const env = p.env ?? {};

  // Settings first: trust decides whether the workspace's settings count.
  const layersRead = await Promise.all([
    readSettings("system-defaults", loc.systemDefaults),
    readSettings("user", loc.userSettings),
    readSettings("workspace", loc.workspaceSettings),
    readSettings("system", loc.systemSettings),
  ]);
  const trustText = await readText(loc.trustedFolders);
  const preMerge = mergePolicySettings(
    layersRead.flatMap((l) => (l.layer ? [l.layer] : [])),
    false,
  ).settings;
  const realpathSync = (await import("node:fs")).realpathSync;
  const trustFile = trustText === null ? { rules: [] } : parseTrustedFolders(trustText);
  const trust = workspaceTrust({
    file: trustFile,
    workspace: p.cwd,
    folderTrustEnabled: preMerge.security?.folderTrust?.enabled ?? true,
    env,
    realpath: (x) => {
      try {
        return realpathSync(x);
      } catch {
        return x;
      }
    },
  });
  const { settings, from } = mergePolicySettings(
    layersRead.flatMap((l) => (l.layer ? [l.layer] : [])),
    trust.trusted,
  );
  const settingsStores = layersRead.map((l) =>
    l.store.scope === "workspace" && l.store.loaded && !trust.trusted
      ? { ...l.store, loaded: false, error: "ignored: the folder is not trusted" }
      : l.store,
  );

  const files: PolicyStoreFile[] = [];
  // Admin tier: /etc/gemini-cli/policies, skipped unless the directory is secure.
  const secure = p.checkSystemDirSecure === false ? { secure: true } : await systemDirSecure(loc.systemPolicies);
  for (const f of await readPolicyDir(loc.systemPolicies, "admin", { readOnly: true })) {
    files.push(
      secure.secure
        ? f
        : { ...f, loaded: false, notLoadedReason: `Gemini skips ${loc.systemPolicies}: ${secure.reason}` },
    );
  }
  // User tier: ~/.gemini/policies (replaced by policyPaths when set).
  const userDirs = settings.policyPaths?.length
    ? settings.policyPaths.map((x) => path.resolve(p.cwd, x))
    : [loc.userPolicies];
  for (const dir of userDirs) {
    for (const f of await readPolicyDir(dir, "user", {})) {
      files.push(path.basename(f.path) === "auto-saved.toml" ? { ...f, help: AUTO_SAVED_HELP } : f);
    }
  }
  if (settings.policyPaths?.length) {
    for (const f of await readPolicyDir(loc.userPolicies, "user", {})) {
      files.push({ ...f, loaded: false, notLoadedReason: "policyPaths replaces ~/.gemini/policies" });
    }
  }
  // Workspace tier: listed, never loaded by this Gemini version.
  for (const f of await readPolicyDir(loc.workspacePolicies, "workspace", {})) {
    const reason = !WORKSPACE_POLICIES_ENABLED
      ? "not loaded by this Gemini version (workspace policies are disabled in Gemini CLI 0.61.0)"
      : !trust.trusted
        ? "not loaded: the folder is not trusted"
        : undefined;
    files.push(reason ? { ...f, loaded: false, notLoadedReason: reason } : f);
  }
  // Extension tier: allow rules and YOLO rules are dropped, as Gemini drops them.
  let extNames: string[] = [];
  try {
    extNames = (await fs.readdir(loc.extensions, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    extNames = [];
  }
  for (const ext of extNames) {
    for (const f of await readPolicyDir(path.join(loc.extensions, ext, "policies"), "extension", {
      readOnly: true,
      extension: ext,
    })) {
      const kept = f.rules.filter((r) => r.decision !== "allow" && !r.modes?.includes("yolo"));
      for (const r of kept) r.source = r.source.replace(/^Extension: /, `Extension (${ext}): `);
      files.push({ ...f, rules: kept, checkers: f.checkers.filter((c) => !c.modes?.includes("yolo")) });
    }
  }
  // Default tier: Gemini's built-in files.
  for (const b of builtinPolicyFiles()) {
    files.push({
      path: `${BUILTIN_POLICY_DIR}/${b.name}`,
      tier: "default",
      loaded: true,
      readOnly: true,
      invalid: b.parsed.invalid,
      errors: b.parsed.errors,
      rules: b.parsed.rules,
      checkers: b.parsed.checkers,
      tables: b.parsed.tables,
      // No help line: the listing's readOnlyReason ("built into Gemini CLI") says it once per file already.
    });
  }

  const loaded = files.filter((f) => f.loaded && !f.invalid);
  // Gemini's insertion order (ties of equal priority keep it): the TOML directories admin → user → workspace →
  // default, then the settings-derived rules, then extensions (added later by the extension manager).
  const order: TierName[] = ["admin", "user", "workspace", "default"];
  const rules = order.flatMap((t) => loaded.filter((f) => f.tier === t).flatMap((f) => f.rules));
  rules.push(...settingsRules(settings, { interactive: opts.interactive, from }));
  rules.push(...loaded.filter((f) => f.tier === "extension").flatMap((f) => f.rules));
  const checkers = [...order, "extension" as const].flatMap((t) =>
    loaded.filter((f) => f.tier === t).flatMap((f) => f.checkers),
  );
  return {
    files,
    settings: settingsStores,
    trust: {
      ...trust,
      file: loc.trustedFolders,
      rules: trustFile.rules,
      ...(trustFile.error ? { error: trustFile.error } : {}),
    },
    rules,
    checkers,
    disableAlwaysAllow: alwaysAllowDisabled(settings),
    conseca: !!settings.security?.enableConseca,
    defaultMode: settings.general?.defaultApprovalMode,
    yoloDisabled: !!(settings.security?.disableYoloMode || settings.admin?.secureModeEnabled),
  };
}
