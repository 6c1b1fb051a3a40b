import type { Agent, Mode, ParseResult } from "./types";

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

const MEVEDEL: Record<string, Mode> = { ask: "default", edits: "accept-edits", fullauto: "yolo", plan: "plan" };

/** Canonical mode for an agent's spelling (`acceptEdits`, `auto-accept`, `bypassPermissions`, mevedel `full-auto`…). */
export function normalizeMode(agent: Agent, raw: string): ParseResult<Mode> {
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[-_\s]/g, "");
  const mode =
    (agent === "mevedel" ? MEVEDEL[key] : undefined) ??
    (agent === "claude-code" && key === "auto" ? "auto" : undefined) ??
    ALIASES[key];
  if (mode) return { ok: true, value: mode };
  return { ok: false, error: `unknown mode "${raw}" for ${agent}` };
}
