import type { Dialect, Mode, ParseResult } from "./types";

// Every spelling the agents accept, folded to lower case without separators.
const ALIASES: Record<string, Mode> = {
  default: "default",
  manual: "default",
  standard: "default",
  acceptedits: "accept-edits",
  autoaccept: "accept-edits",
  plan: "plan",
  yolo: "yolo",
  bypass: "yolo",
  bypasspermissions: "yolo",
  dangerouslyskippermissions: "yolo",
  dontask: "dont-ask",
};

/**
 * Canonical mode for an agent's spelling (`acceptEdits`, `auto-accept`, `bypassPermissions`, mevedel `full-auto`…):
 * the dialect's own spellings first, then the common ones.
 */
export function normalizeMode(dialect: Dialect, raw: string): ParseResult<Mode> {
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[-_\s]/g, "");
  const mode = (Object.hasOwn(dialect.modes, key) ? dialect.modes[key] : undefined) ?? ALIASES[key];
  if (mode) return { ok: true, value: mode };
  return { ok: false, error: `unknown mode "${raw}" for ${dialect.id}` };
}
