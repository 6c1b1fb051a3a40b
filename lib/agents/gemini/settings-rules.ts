import { z } from "zod";
import { MCP_TOOL_PREFIX, SHELL_TOOL_NAME, SHELL_TOOL_NAMES } from "./names";
import { buildArgsPatterns } from "./patterns";
import { SETTINGS_PRIORITY, type GeminiMode, type GeminiRule, type RuleOrigin } from "./types";

/**
 * Rules Gemini CLI derives from `settings.json` (facts from @google/gemini-cli-core 0.61.0 policy/config.ts
 * `createPolicyEngineConfig`, and packages/cli/src/config/settings.ts for how the files merge). Pure.
 */

/** The part of a settings file that produces rules; everything else is ignored here. */
export const PolicySettingsSchema = z
  .object({
    tools: z
      .object({
        allowed: z.array(z.string()).optional(),
        exclude: z.array(z.string()).optional(),
        core: z.array(z.string()).optional(),
        confirmationRequired: z.array(z.string()).optional(),
      })
      .passthrough()
      .optional(),
    mcp: z
      .object({
        allowed: z.array(z.string()).optional(),
        excluded: z.array(z.string()).optional(),
        autoAllowInHeadless: z.boolean().optional(),
      })
      .passthrough()
      .optional(),
    mcpServers: z.record(z.string(), z.object({ trust: z.boolean().optional() }).passthrough()).optional(),
    security: z
      .object({
        disableAlwaysAllow: z.boolean().optional(),
        disableYoloMode: z.boolean().optional(),
        enableConseca: z.boolean().optional(),
        folderTrust: z.object({ enabled: z.boolean().optional() }).passthrough().optional(),
      })
      .passthrough()
      .optional(),
    admin: z.object({ secureModeEnabled: z.boolean().optional() }).passthrough().optional(),
    general: z.object({ defaultApprovalMode: z.string().optional() }).passthrough().optional(),
    policyPaths: z.array(z.string()).optional(),
    adminPolicyPaths: z.array(z.string()).optional(),
  })
  .passthrough();
export type PolicySettings = z.infer<typeof PolicySettingsSchema>;

export type SettingsScope = "system-defaults" | "user" | "workspace" | "system";

/** Where each settings value came from, so a rule can name its file. */
export interface SettingsLayer {
  scope: SettingsScope;
  file: string;
  settings: PolicySettings;
}

const UNION_KEYS = new Set(["tools.exclude"]);
const SHALLOW_KEYS = new Set(["mcpServers"]);

/**
 * `mergeSettings`: system-defaults, then user, then workspace (only in a trusted folder), then system as the
 * final override. Arrays replace, except `tools.exclude` (union); `mcpServers` merges one level deep.
 * Returns the merged values and, for each rule-producing array, the layer that supplied it.
 */
export function mergePolicySettings(
  layers: SettingsLayer[],
  trustedFolder: boolean,
): { settings: PolicySettings; from: Record<string, SettingsLayer> } {
  const order: SettingsScope[] = ["system-defaults", "user", "workspace", "system"];
  const sorted = order
    .map((s) => layers.find((l) => l.scope === s))
    .filter((l): l is SettingsLayer => !!l && (l.scope !== "workspace" || trustedFolder));
  const out: Record<string, unknown> = {};
  const from: Record<string, SettingsLayer> = {};
  const merge = (
    target: Record<string, unknown>,
    src: Record<string, unknown>,
    prefix: string,
    layer: SettingsLayer,
  ) => {
    for (const key of Object.keys(src)) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
      const v = src[key];
      if (v === undefined) continue;
      const keyPath = prefix ? `${prefix}.${key}` : key;
      const cur = target[key];
      if (SHALLOW_KEYS.has(keyPath) && cur && v) {
        target[key] = { ...(cur as object), ...(v as object) };
        from[keyPath] = layer;
        continue;
      }
      if (Array.isArray(cur) && UNION_KEYS.has(keyPath)) {
        target[key] = [...new Set([...cur, ...(Array.isArray(v) ? v : [v])])];
        from[keyPath] = layer;
        continue;
      }
      if (v && typeof v === "object" && !Array.isArray(v)) {
        if (!cur || typeof cur !== "object" || Array.isArray(cur)) target[key] = {};
        merge(target[key] as Record<string, unknown>, v as Record<string, unknown>, keyPath, layer);
      } else {
        target[key] = Array.isArray(v) ? [...v] : v;
        from[keyPath] = layer;
      }
    }
  };
  for (const l of sorted) merge(out, l.settings as Record<string, unknown>, "", l);
  return { settings: out as PolicySettings, from };
}

const NON_PLAN: GeminiMode[] = ["default", "autoEdit", "yolo"];

/**
 * The settings-derived rules with their fixed priorities (all in the user tier): `mcp.excluded` 4.9 deny,
 * `tools.exclude` 4.4 deny, `tools.confirmationRequired` 4.35 ask, `tools.allowed` 4.3 allow (a legacy
 * `run_shell_command(git status)` entry becomes a commandPrefix and adds the hidden 4.29 "Narrowing Enforcement"
 * deny on the shell tool), `tools.core` 4.25 allow plus a `*` deny at 4.24 outside plan mode, `mcpServers.<n>.trust`
 * 4.2 allow, `mcp.allowed` 4.1 allow. `interactive` false adds Gemini's headless `ask_user` exclusion.
 */
export function settingsRules(
  settings: PolicySettings,
  opts: { interactive?: boolean; from?: Record<string, SettingsLayer> } = {},
): GeminiRule[] {
  const interactive = opts.interactive ?? true;
  const rules: GeminiRule[] = [];
  const origin = (key: string): RuleOrigin => ({
    kind: "settings",
    file: opts.from?.[key]?.file,
    setting: key,
    tier: "user",
  });

  for (const [i, server] of (settings.mcp?.excluded ?? []).entries()) {
    rules.push({
      toolName: server === "*" ? `${MCP_TOOL_PREFIX}*` : `${MCP_TOOL_PREFIX}${server}_*`,
      mcpName: server,
      decision: "deny",
      priority: SETTINGS_PRIORITY.mcpExcluded,
      source: "Settings (MCP Excluded)",
      origin: { ...origin("mcp.excluded"), setting: `mcp.excluded[${i}]` },
    });
  }
  const exclude = [...(settings.tools?.exclude ?? [])];
  // packages/cli/src/config/config.ts: headless runs (and ACP) always exclude ask_user.
  if (!interactive && !exclude.includes("ask_user")) exclude.push("ask_user");
  for (const [i, tool] of exclude.entries()) {
    rules.push({
      toolName: tool,
      decision: "deny",
      priority: SETTINGS_PRIORITY.toolsExclude,
      source: "Settings (Tools Excluded)",
      origin: { ...origin("tools.exclude"), setting: `tools.exclude[${i}]` },
    });
  }

  const mapTools = (
    key: "tools.allowed" | "tools.core",
    tools: string[],
    priority: number,
    source: string,
    modes: GeminiMode[] | undefined,
    narrowing: boolean,
  ) => {
    const narrowed = new Set<string>();
    tools.forEach((tool, i) => {
      const o = { ...origin(key), setting: `${key}[${i}]` };
      const m = /^([a-zA-Z0-9_-]+)\((.*)\)$/.exec(tool);
      if (m) {
        const name = SHELL_TOOL_NAMES.includes(m[1]) ? SHELL_TOOL_NAME : m[1];
        if (name === SHELL_TOOL_NAME) {
          narrowed.add(name);
          for (const p of buildArgsPatterns(undefined, m[2])) {
            if (p)
              rules.push({
                toolName: name,
                decision: "allow",
                priority,
                argsPattern: new RegExp(p),
                source,
                modes,
                origin: o,
              });
          }
        } else {
          rules.push({ toolName: name, decision: "allow", priority, source, modes, origin: o });
        }
      } else {
        rules.push({
          toolName: SHELL_TOOL_NAMES.includes(tool) ? SHELL_TOOL_NAME : tool,
          decision: "allow",
          priority,
          source,
          modes,
          origin: o,
        });
      }
    });
    if (narrowing) {
      for (const name of narrowed) {
        rules.push({
          toolName: name,
          decision: "deny",
          priority: priority - 0.01,
          source: `${source} (Narrowing Enforcement)`,
          modes,
          origin: { ...origin(key), setting: `${key} (narrowing)` },
        });
      }
    }
  };
  if (settings.tools?.allowed)
    mapTools(
      "tools.allowed",
      settings.tools.allowed,
      SETTINGS_PRIORITY.toolsAllowed,
      "Settings (Tools Allowed)",
      undefined,
      true,
    );
  for (const [i, tool] of (settings.tools?.confirmationRequired ?? []).entries()) {
    rules.push({
      toolName: SHELL_TOOL_NAMES.includes(tool) ? SHELL_TOOL_NAME : tool,
      decision: "ask_user",
      priority: SETTINGS_PRIORITY.confirmationRequired,
      source: "Settings (Confirmation Required)",
      origin: { ...origin("tools.confirmationRequired"), setting: `tools.confirmationRequired[${i}]` },
    });
  }
  if (settings.tools?.core) {
    mapTools("tools.core", settings.tools.core, SETTINGS_PRIORITY.toolsCore, "Settings (Core Tools)", NON_PLAN, false);
    rules.push({
      toolName: "*",
      decision: "deny",
      priority: SETTINGS_PRIORITY.toolsCore - 0.01,
      source: "Settings (Core Tools Allowlist Enforcement)",
      modes: NON_PLAN,
      origin: { ...origin("tools.core"), setting: "tools.core (allowlist enforcement)" },
    });
  }
  for (const [server, cfg] of Object.entries(settings.mcpServers ?? {})) {
    if (cfg.trust) {
      rules.push({
        toolName: `${MCP_TOOL_PREFIX}${server}_*`,
        mcpName: server,
        decision: "allow",
        priority: SETTINGS_PRIORITY.mcpTrusted,
        source: "Settings (MCP Trusted)",
        modes: NON_PLAN,
        origin: { ...origin("mcpServers"), setting: `mcpServers.${server}.trust` },
      });
    }
  }
  for (const [i, server] of (settings.mcp?.allowed ?? []).entries()) {
    rules.push({
      toolName: server === "*" ? `${MCP_TOOL_PREFIX}*` : `${MCP_TOOL_PREFIX}${server}_*`,
      mcpName: server,
      decision: "allow",
      priority: SETTINGS_PRIORITY.mcpAllowed,
      source: "Settings (MCP Allowed)",
      modes: NON_PLAN,
      origin: { ...origin("mcp.allowed"), setting: `mcp.allowed[${i}]` },
    });
  }
  if (!interactive && settings.mcp?.autoAllowInHeadless && settings.mcpServers) {
    for (const server of Object.keys(settings.mcpServers)) {
      if (
        settings.mcp.allowed?.includes(server) ||
        settings.mcp.allowed?.includes("*") ||
        settings.mcpServers[server].trust
      )
        continue;
      rules.push({
        toolName: server === "*" ? `${MCP_TOOL_PREFIX}*` : `${MCP_TOOL_PREFIX}${server}_*`,
        mcpName: server,
        decision: "allow",
        priority: SETTINGS_PRIORITY.mcpAllowed,
        source: "Settings (Headless MCP Auto-Allow)",
        modes: NON_PLAN,
        origin: { ...origin("mcp.autoAllowInHeadless"), setting: "mcp.autoAllowInHeadless" },
      });
    }
  }
  return rules;
}

/** `security.disableAlwaysAllow || admin.secureModeEnabled`. */
export const alwaysAllowDisabled = (s: PolicySettings): boolean =>
  !!(s.security?.disableAlwaysAllow || s.admin?.secureModeEnabled);
