import { hiddenTextWarning } from "@/lib/text/reveal";

const FETCH = String.raw`(?:curl|wget|fetch|aria2c|xh|https?|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)`;
const SHELL = String.raw`(?:\S*/)?(?:ba|z|da|k|fi|tc|c|a)?sh`;
const RUNNER = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:${SHELL}|(?:\S*/)?(?:python[0-9.]*|perl|ruby|node|php|pwsh|powershell)|iex|Invoke-Expression|source|\.)`;
const PIPE_TO_SHELL = [
  // curl … | sh, wget -O- … | sudo bash, iwr … | iex
  new RegExp(String.raw`\b${FETCH}\b[^;&\n]*\|\s*${RUNNER}(?=\s|$|;|&|\))`, "i"),
  // bash <(curl …), source <(wget -O- …)
  new RegExp(String.raw`(?:^|[\s;&|(])${RUNNER}\s+(?:-\S+\s+)*<\(\s*${FETCH}\b`, "i"),
  // sh -c "$(curl …)", bash -c \`wget …\`
  new RegExp(String.raw`(?:^|[\s;&|(])${SHELL}\s+(?:-\S+\s+)*-c\s+["']?(?:\$\(|\`)\s*${FETCH}\b`, "i"),
  // eval "$(curl …)", iex (irm …)
  new RegExp(String.raw`\b(?:eval|iex|Invoke-Expression)\s+["']?(?:\$\(|\`|\()\s*${FETCH}\b`, "i"),
];

export const PIPE_TO_SHELL_WARNING = "downloads and runs code";
export const HIDDEN_TEXT_WARNING = "hidden characters";

/** True when a shell command fetches code from the network and runs it in the same breath. */
export function downloadsAndRuns(command: string): boolean {
  return PIPE_TO_SHELL.some((re) => re.test(command));
}

/**
 * Warnings the cockpit adds to a card beside the engine's: code fetched and run by the shell, and hidden
 * characters (bidi controls, zero-width, escapes) anywhere in the agent-chosen text.
 */
export function requestWarnings(args: { tool: string; input: Record<string, unknown>; texts: unknown[] }): string[] {
  const out: string[] = [];
  const command = args.input.command;
  if (typeof command === "string" && downloadsAndRuns(command)) out.push(PIPE_TO_SHELL_WARNING);
  if (hiddenTextWarning([args.tool, args.input, ...args.texts])) out.push(HIDDEN_TEXT_WARNING);
  return out;
}
