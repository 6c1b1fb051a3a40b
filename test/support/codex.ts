import type { Parser } from "web-tree-sitter";
import { loadCodexParsers } from "@/lib/agents/codex/io/parsers";
import { loadPolicy, type LoadedPolicy } from "@/lib/agents/codex/policy";
import { parseRulesFile } from "@/lib/agents/codex/rules-parse";
import type { CodexLayer } from "@/lib/agents/codex/types";

export let python: Parser;
export let bash: Parser;

/** Call in a `beforeAll`: loads tree-sitter-python and tree-sitter-bash once. */
export async function useCodexParsers(): Promise<void> {
  const p = await loadCodexParsers();
  python = p.python;
  bash = p.bash;
}

export function rulesFile(src: string, path = "/home/u/.codex/rules/test.rules", layer: CodexLayer = "user") {
  return parseRulesFile(path, src, layer, python);
}

/** PolicyParser::parse for each source in order, then build (files named first.rules, second.rules, …). */
export function policyOf(...sources: string[]): LoadedPolicy {
  return loadPolicy(
    sources.map((s, i) => rulesFile(s, `/home/u/.codex/rules/${i}.rules`)),
    [],
    { cwd: "/work", home: "/home/u" },
  );
}

export const shell = (command: string[], extra: Record<string, unknown> = {}) => ({
  tool: "shell" as const,
  input: { command, ...extra },
});
