/**
 * Codex's dialect of the engine: its call shape (argv), its modes (the approval policy, `--sandbox`), its stores read
 * as Codex reads them for one folder, and session entries in its words. Deciding is `snapshot.ts` (pure).
 */
import path from "node:path";
import { cockpitProtectedPaths } from "@/lib/stores/policy-context";
import type { AgentEngine } from "../types";
import { readCodexCall } from "./call";
import { ApprovalPolicy, SandboxMode } from "./decide";
import { codexPathsOf, loadCodexParsers } from "./io/parsers";
import { discoverCodexStores } from "./io/discover";
import { storeInfos } from "./listing";
import { info } from "./info";
import { parseSessionRule, patternWords, TO_DECISION } from "./rule-text";
import { codexSnapshot, type CodexSessionRules } from "./snapshot";
import { shlexJoin } from "./shlex";
import type { PrefixRule } from "./types";

const POLICIES = ApprovalPolicy.options[0].options;

export const engine: AgentEngine = {
  parseMode(mode) {
    const m = POLICIES.find((p) => p === mode);
    return m
      ? { ok: true, value: m }
      : { ok: false, error: `unknown approval policy "${mode}" (use ${POLICIES.join(", ")})` };
  },
  parseCall(raw) {
    const reading = readCodexCall((raw ?? {}) as { tool?: unknown; input?: unknown });
    return reading.ok ? { ok: true, value: reading.call } : { ok: false, error: reading.error };
  },
  flags: {
    sandbox: {
      type: "string",
      help: `Codex's sandbox mode (${SandboxMode.options.join(", ")}); default from config.toml and trust`,
    },
  },
  async load({ paths, cwd, sessionRows, sessionId }) {
    const parsers = await loadCodexParsers();
    const where = codexPathsOf(paths, cwd ?? undefined);
    const stores = await discoverCodexStores(where, parsers.python);
    const session: CodexSessionRules = { sessionId: sessionId ?? "", prefix: [], exact: [] };
    for (const row of sessionRows ?? []) {
      if (row.agent !== info.id || row.agentSessionId !== sessionId) continue;
      const parsed = parseSessionRule(row.rule, parsers.python);
      if (!parsed.ok) continue; // listed as malformed on the Rules page; it decides nothing
      const v = parsed.value;
      if (v.kind === "exact") {
        if (row.action === "allow") session.exact.push({ argv: v.argv, text: row.rule });
        continue;
      }
      const [head, ...rest] = v.pattern;
      const source = {
        file: `session:${row.agentSessionId}`,
        line: 0,
        endLine: 0,
        start: 0,
        end: 0,
        layer: "session" as const,
      };
      for (const first of typeof head === "string" ? [head] : head!) {
        const rule: PrefixRule = {
          kind: "prefix",
          first,
          rest,
          decision: TO_DECISION[row.action],
          pattern: v.pattern,
          source,
        };
        session.prefix.push({ rule, text: row.rule });
      }
    }
    return codexSnapshot({
      agent: info.id,
      paths,
      stores: storeInfos(stores, paths),
      policy: stores.policy,
      modes: stores.modes,
      ...(stores.fatal ? { fatal: stores.fatal } : {}),
      cwd: stores.paths.cwd,
      home: path.resolve(paths.home),
      codexHome: stores.paths.codexHome,
      session,
      bash: parsers.bash,
      protectedPaths: cockpitProtectedPaths(),
    });
  },
  // A prefix rule names a program and its first words: none allows every shell command.
  isToolWide: async () => false,
  describeRule(rule, action) {
    void action;
    const t = rule.trim();
    if (t.startsWith("[")) {
      try {
        const v = JSON.parse(t) as unknown;
        if (Array.isArray(v) && v.length && v.every((x) => typeof x === "string"))
          return { ok: true, value: { tool: "shell", specifier: shlexJoin(v as string[]) } };
      } catch {
        // fall through to the prefix-rule reading
      }
    }
    const m = /^prefix_rule\s*\(\s*pattern\s*=\s*(\[.*\])\s*(?:,|\))/s.exec(t);
    if (m) {
      try {
        const pattern = JSON.parse(m[1]!) as (string | string[])[];
        return { ok: true, value: { tool: "shell", specifier: patternWords(pattern) } };
      } catch {
        // not the canonical form
      }
    }
    return {
      ok: false,
      error: 'a Codex session entry is a command ["git", "push"] or prefix_rule(pattern=[…], decision="…")',
    };
  },
};
