import { decideGemini, type GeminiVerdict } from "./engine";
import type { HostFacts } from "./host";
import type { GeminiStores } from "./io/stores";
import type { GeminiShell } from "./shell";
import { modeFromFlag, type GeminiCall, type GeminiMode } from "./types";

/**
 * The mode Gemini actually runs in (packages/cli/src/config/config.ts): `--approval-mode`, else
 * `general.defaultApprovalMode` (but never yolo from settings); an untrusted folder forces `default`; YOLO is
 * refused when `security.disableYoloMode` or `admin.secureModeEnabled` is set.
 */
export function effectiveMode(
  requested: string | undefined,
  ctx: { trusted: boolean; defaultMode?: string; yoloDisabled?: boolean },
): { mode: GeminiMode; note?: string; error?: string } {
  const raw = requested ?? (ctx.defaultMode !== "yolo" ? ctx.defaultMode : undefined);
  const mode = raw ? modeFromFlag(raw) : "default";
  if (!mode)
    return {
      mode: "default",
      error: `invalid approval mode ${JSON.stringify(raw)}: use default, auto_edit, yolo or plan`,
    };
  if (mode === "yolo" && ctx.yoloDisabled)
    return {
      mode: "default",
      error: "YOLO mode is disabled by settings (security.disableYoloMode or admin.secureModeEnabled)",
    };
  if (!ctx.trusted && mode !== "default")
    return { mode: "default", note: `the folder is not trusted, so Gemini runs in default mode instead of ${mode}` };
  return { mode };
}

export interface DecideInput {
  call: GeminiCall;
  stores: Pick<
    GeminiStores,
    "rules" | "checkers" | "trust" | "disableAlwaysAllow" | "conseca" | "defaultMode" | "yoloDisabled"
  >;
  /** `--mode default|auto_edit|yolo|plan`; unset = Gemini's own choice. */
  mode?: string;
  interactive?: boolean;
  shell: GeminiShell | null;
  host: HostFacts;
  /** Extra workspace directories (`--include-directories`) for the allowed-path checker. */
  workspaces?: string[];
}

/** Decide a call against a workspace's loaded stores, as Gemini CLI would, with the safety checkers it can model. */
export function decideWithStores(input: DecideInput): GeminiVerdict & { mode: GeminiMode; modeNote?: string } {
  const m = effectiveMode(input.mode, {
    trusted: input.stores.trust.trusted,
    defaultMode: input.stores.defaultMode,
    yoloDisabled: input.stores.yoloDisabled,
  });
  if (m.error) throw new Error(m.error);
  const v = decideGemini(input.call, {
    rules: input.stores.rules,
    checkers: input.stores.checkers,
    mode: m.mode,
    nonInteractive: input.interactive === false,
    disableAlwaysAllow: input.stores.disableAlwaysAllow,
    trustedFolder: input.stores.trust.trusted,
    shell: input.shell,
    host: input.host,
    safetyCheckers: { enabled: true, conseca: input.stores.conseca, workspaces: input.workspaces ?? [] },
  });
  if (m.note) v.trace.unshift(m.note);
  if (!input.stores.trust.trusted) v.trace.unshift(`folder trust: ${input.stores.trust.reason}`);
  return { ...v, mode: m.mode, modeNote: m.note };
}
