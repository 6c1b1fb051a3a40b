/**
 * Codex's stores behind the agent interface: list every rules file, requirement and mode/trust setting as Codex
 * reads them for the workspace (or the agent's cwd); revoke, narrow and add in place, keeping every other byte, with
 * the edited `.rules` file re-read and its `match`/`not_match` examples re-checked (an edit that would make Codex
 * reject the file, and so ignore every rule, is refused). Writes are compare-and-swap on the listed version.
 */
import path from "node:path";
import {
  StoreChangedError,
  InvalidInputError,
  InvalidStoreError,
  NarrowingRefusedError,
  EntryNotFoundError,
  ReadOnlyStoreError,
} from "@/lib/errors";
import type { AgentStores, EntryTarget as Target, StoreScope, StoreWrite } from "../types";
import { ConfigEditRefused, removeSetting, setApprovalPolicy, setProjectTrust, setSandboxMode } from "./config-edit";
import { ApprovalPolicy, SandboxMode } from "./decide";
import { discoverCodexStores } from "./io/discover";
import { codexPathsOf, loadCodexParsers } from "./io/parsers";
import { writeCodexFile } from "./io/write";
import { lintCodex } from "./lint";
import { codexListing, settingAction, settingText, type CodexListing, type LocatedCodexEntry } from "./listing";
import {
  addPrefixRule,
  isNarrowerPattern,
  narrowCall,
  renderPattern,
  revokeCall,
  RulesEditRefused,
  setCallDecision,
} from "./rules-edit";
import { parseRuleInput, prefixRuleText, scopeOfLayer, TO_ACTION, TO_DECISION, type CockpitAction } from "./rule-text";
import { parseRulesFile, type RulesFile } from "./rules-parse";
import type { CodexStoreFile, CodexStores } from "./store-files";
import type { CodexDecision, PatternToken } from "./types";

const GLOBAL_WARNING = "global entry: this file affects every project";
const RANK: Record<CockpitAction, number> = { allow: 0, ask: 1, deny: 2 };

async function read(scope: StoreScope): Promise<{ stores: CodexStores; listing: CodexListing }> {
  const { python } = await loadCodexParsers();
  const stores = await discoverCodexStores(codexPathsOf(scope, scope.cwd), python);
  return { stores, listing: codexListing(stores, scope) };
}

async function locate(target: Target): Promise<{ stores: CodexStores; found: LocatedCodexEntry }> {
  const { stores, listing } = await read(target);
  const found = listing.located.find((l) => l.entry.id === target.id);
  if (!found) throw new EntryNotFoundError(`no entry ${target.id} — refresh`);
  if (target.expectedVersion && target.expectedVersion !== found.file.version) throw new StoreChangedError();
  if (!found.entry.writable) {
    const info = listing.stores.find((s) => s.path === found.file.path);
    throw new ReadOnlyStoreError(
      `${found.file.path} is read-only${info?.readOnlyReason ? `: ${info.readOnlyReason}` : ""}`,
    );
  }
  return { stores, found };
}

/** The folder below which no component may be a symlink: `~/.codex` for the user's files, else the project. */
function rootOf(file: string, stores: CodexStores): string {
  const home = stores.paths.codexHome;
  if (file.startsWith(home + path.sep)) return home;
  const dot = file.indexOf(`${path.sep}.codex${path.sep}`);
  return dot >= 0 ? file.slice(0, dot) : path.dirname(file);
}

function lineText(text: string, line: number): string {
  return text.split("\n")[line - 1]?.replace(/\r$/, "") ?? "";
}

/** Active rules files Codex loads with this one: an edit must keep their examples passing too. */
function context(stores: CodexStores): RulesFile[] {
  return stores.rules;
}

function refusal(error: unknown): never {
  if (error instanceof RulesEditRefused || error instanceof ConfigEditRefused) {
    if (/not narrower|unchanged/.test(error.message))
      throw new NarrowingRefusedError(`cannot prove narrower: ${error.message}`);
    throw new InvalidInputError(error.message);
  }
  throw error;
}

async function commit(
  stores: CodexStores,
  file: CodexStoreFile,
  next: string,
  lines: { before: number; after: number },
  dryRun: boolean | undefined,
): Promise<Omit<StoreWrite, "entry">> {
  const version = dryRun
    ? file.version
    : (
        await writeCodexFile({
          file: file.path,
          root: rootOf(file.path, stores),
          expectedVersion: file.version,
          content: next,
        })
      ).version;
  const scope = scopeOfLayer(file.layer);
  return {
    store: file.path,
    scope,
    before: { version: file.version, line: lines.before, text: lineText(file.text, lines.before) },
    after: { version, line: lines.after, text: lineText(next, lines.after) },
    ...(scope === "global" ? { scopeWarning: GLOBAL_WARNING } : {}),
    ...(dryRun ? { dryRun: true } : {}),
  };
}

/** A narrowing SPEC for a prefix rule: a decision, a JSON pattern, or a whole `prefix_rule(...)`. */
function readSpec(
  spec: string,
  python: Awaited<ReturnType<typeof loadCodexParsers>>["python"],
): { decision?: CodexDecision; pattern?: PatternToken[] } {
  const s = spec.trim();
  if (s === "allow" || s === "ask" || s === "deny") return { decision: TO_DECISION[s] as CodexDecision };
  const parsed = parseRuleInput(s, python);
  if (!parsed.ok) throw new InvalidInputError(`--to: ${parsed.error}`);
  if (parsed.value.kind !== "prefix") throw new InvalidInputError("--to: give a pattern or a decision");
  return { pattern: parsed.value.pattern, ...(parsed.value.decision ? { decision: parsed.value.decision } : {}) };
}

function stricterOrSame(from: CodexDecision, to: CodexDecision): boolean {
  return RANK[TO_ACTION[to]] >= RANK[TO_ACTION[from]];
}

const SANDBOX_RANK: Record<string, number> = { "read-only": 0, "workspace-write": 1, "danger-full-access": 2 };

/** A setting's narrower value, or the reason there is none. */
function narrowSetting(key: string, from: unknown, spec: string): string {
  const value = spec.includes("=") ? spec.split("=").slice(1).join("=").trim().replace(/^"|"$/g, "") : spec.trim();
  if (key === "trust_level") {
    if (from === "trusted" && value === "untrusted") return value;
    throw new NarrowingRefusedError('cannot prove narrower: a trusted project narrows only to "untrusted"');
  }
  if (key === "sandbox_mode") {
    if (!(value in SANDBOX_RANK)) throw new InvalidInputError(`--to: unknown sandbox mode "${value}"`);
    if (typeof from === "string" && SANDBOX_RANK[value]! < (SANDBOX_RANK[from] ?? -1)) return value;
    throw new NarrowingRefusedError(`cannot prove narrower: sandbox ${value} is not stricter than ${String(from)}`);
  }
  if (value === "untrusted" && (from === "on-request" || from === "on-failure")) return value;
  throw new NarrowingRefusedError(
    `cannot prove narrower: approval_policy ${JSON.stringify(from)} narrows only to "untrusted" (from on-request or on-failure); never turns prompts into rejections, so no policy is provably narrower`,
  );
}

function settingEdit(text: string, pathParts: readonly string[], value: string): string {
  const key = pathParts[pathParts.length - 1]!;
  const profile = pathParts[0] === "profiles" ? pathParts[1] : undefined;
  if (key === "trust_level") return setProjectTrust(text, pathParts[1]!, value as "trusted" | "untrusted");
  if (key === "sandbox_mode")
    return setSandboxMode(text, value as "read-only" | "workspace-write" | "danger-full-access", profile);
  return setApprovalPolicy(text, ApprovalPolicy.parse(value), profile);
}

const SETTING = /^(approval_policy|sandbox_mode|trust_level)\s*=\s*"([^"]*)"\s*$/;

export const stores: AgentStores = {
  async list(scope) {
    const { listing } = await read(scope);
    return { entries: listing.entries, stores: listing.stores, ...(listing.banner ? { banner: listing.banner } : {}) };
  },

  async revoke(target) {
    const { stores, found } = await locate(target);
    const { python } = await loadCodexParsers();
    const { file, entry } = found;
    let next: string;
    try {
      if (found.target.kind === "call") next = revokeCall(file.rules!, entry.line, python, context(stores)).text;
      else if (found.target.kind === "setting") next = removeSetting(file.text, found.target.setting.path);
      else throw new ReadOnlyStoreError(`${file.path} is read-only`);
    } catch (error) {
      refusal(error);
    }
    return { ...(await commit(stores, file, next, { before: entry.line, after: entry.line }, target.dryRun)), entry };
  },

  async narrow(target) {
    const { stores, found } = await locate(target);
    const { python } = await loadCodexParsers();
    const { file, entry } = found;
    let next: string;
    let to: string;
    try {
      if (found.target.kind === "setting") {
        const s = found.target.setting;
        const value = narrowSetting(s.path[s.path.length - 1]!, s.value, target.to);
        next = settingEdit(file.text, s.path, value);
        to = settingText({ path: s.path, value });
      } else if (found.target.kind === "call" && found.target.call.fn === "prefix_rule") {
        const rule = found.target.call.prefixRules[0]!;
        const spec = readSpec(target.to, python);
        const decision = spec.decision ?? rule.decision;
        if (!stricterOrSame(rule.decision, decision))
          throw new NarrowingRefusedError(`cannot prove narrower: ${decision} allows more than ${rule.decision}`);
        const pattern: readonly PatternToken[] = spec.pattern ?? rule.pattern;
        const patternChanged = renderPattern(pattern) !== renderPattern(rule.pattern);
        if (patternChanged && rule.decision !== "allow")
          throw new NarrowingRefusedError(
            `cannot prove narrower: a ${rule.decision} rule that matches fewer commands ${rule.decision === "prompt" ? "asks about" : "forbids"} fewer; make it stricter (ask → deny) or revoke and add`,
          );
        if (patternChanged && !isNarrowerPattern(pattern, rule.pattern))
          throw new NarrowingRefusedError(
            `cannot prove narrower: ${renderPattern(pattern)} is not narrower than ${renderPattern(rule.pattern)}`,
          );
        if (!patternChanged && decision === rule.decision)
          throw new NarrowingRefusedError("cannot prove narrower: nothing changes");
        let edited = file.rules!;
        if (patternChanged) edited = narrowCall(edited, entry.line, pattern, python, context(stores)).file;
        if (decision !== rule.decision)
          edited = setCallDecision(edited, entry.line, decision, python, context(stores)).file;
        next = edited.text;
        to = prefixRuleText(pattern, decision);
      } else
        throw new NarrowingRefusedError("cannot prove narrower: network rules narrow only by revoking; revoke and add");
    } catch (error) {
      if (error instanceof NarrowingRefusedError || error instanceof InvalidInputError) throw error;
      refusal(error);
    }
    const written = await commit(stores, file, next, { before: entry.line, after: entry.line }, target.dryRun);
    return { ...written, entry, from: entry.rule, to };
  },

  async add(input) {
    const { stores } = await read(input);
    const { python } = await loadCodexParsers();
    const ws = path.resolve(input.workspace);
    const setting = SETTING.exec(input.rule.trim());
    const fileName = input.file ?? (setting ? "config.toml" : "default.rules");
    if (!/^[^/\\]+\.rules$/.test(fileName) && fileName !== "config.toml")
      throw new InvalidInputError(
        `--file: a Codex rules file is NAME.rules (or config.toml for settings), not "${fileName}"`,
      );
    if (setting && fileName !== "config.toml") throw new InvalidInputError(`${setting[1]} goes in config.toml`);
    const dir = input.scope === "global" ? stores.paths.codexHome : path.join(ws, ".codex");
    const target = fileName === "config.toml" ? path.join(dir, "config.toml") : path.join(dir, "rules", fileName);
    const known = stores.files.find((f) => f.path === target);
    if (known?.error)
      throw new InvalidStoreError(
        `${target} line ${known.error.line}: ${known.error.message} — fix it first; it is never overwritten`,
      );
    const file: CodexStoreFile =
      known ??
      ({
        path: target,
        kind: fileName === "config.toml" ? "config" : "rules",
        layer: input.scope === "global" ? "user" : "project",
        exists: false,
        active: true,
        readOnly: false,
        text: "",
        version: "missing",
        ...(input.scope === "workspace" ? { dir: ws } : {}),
      } satisfies CodexStoreFile);
    if (input.expectedVersion && input.expectedVersion !== file.version) throw new StoreChangedError();
    let next: string;
    let ruleText: string;
    let action: CockpitAction = input.action;
    try {
      if (setting) {
        const [, key, value] = setting as unknown as [string, string, string];
        if (key === "trust_level" && input.scope !== "global")
          throw new InvalidInputError("Codex reads trust only from ~/.codex/config.toml: add it at global scope");
        if (key === "approval_policy" && !ApprovalPolicy.safeParse(value).success)
          throw new InvalidInputError(`unknown approval policy "${value}"`);
        if (key === "sandbox_mode" && !SandboxMode.exclude(["external-sandbox"]).safeParse(value).success)
          throw new InvalidInputError(`unknown sandbox mode "${value}"`);
        if (key === "trust_level" && value !== "trusted" && value !== "untrusted")
          throw new InvalidInputError('trust_level is "trusted" or "untrusted"');
        const pathParts = key === "trust_level" ? ["projects", ws, key] : [key];
        action = settingAction({ path: pathParts, value });
        if (action !== input.action)
          throw new InvalidInputError(`${key} = "${value}" is an ${action} entry: add it with action ${action}`);
        next = settingEdit(file.text, pathParts, value);
        ruleText = settingText({ path: pathParts, value });
      } else {
        const parsed = parseRuleInput(input.rule, python);
        if (!parsed.ok) throw new InvalidInputError(parsed.error);
        if (parsed.value.kind !== "prefix") throw new InvalidInputError("give a prefix rule");
        const decision = TO_DECISION[input.action];
        if (parsed.value.decision && parsed.value.decision !== decision)
          throw new InvalidInputError(
            `the rule says decision "${parsed.value.decision}" but the action is ${input.action}`,
          );
        const current = file.rules ?? parseRulesFile(file.path, file.text, file.layer, python);
        const rule = {
          pattern: parsed.value.pattern,
          decision,
          ...(parsed.value.justification ? { justification: parsed.value.justification } : {}),
        };
        ruleText = prefixRuleText(rule.pattern, decision);
        try {
          next = addPrefixRule(current, rule, python, context(stores)).text;
        } catch (error) {
          if (error instanceof RulesEditRefused && /already there/.test(error.message)) {
            const there = codexListing(
              { ...stores, files: [{ ...file, exists: true, rules: current }] },
              input,
            ).located.find((l) => l.file.path === file.path && l.entry.rule === ruleText);
            const line = there?.entry.line ?? 0;
            const same = { version: file.version, line, text: lineText(file.text, line) };
            return {
              id: there?.entry.id ?? "",
              unchanged: true,
              store: file.path,
              scope: scopeOfLayer(file.layer),
              before: same,
              after: same,
            };
          }
          throw error;
        }
      }
    } catch (error) {
      if (error instanceof InvalidInputError) throw error;
      refusal(error);
    }
    // The new entry as the next listing will show it (its line and id).
    const nextFile: CodexStoreFile = {
      ...file,
      exists: true,
      text: next,
      ...(file.kind === "rules" ? { rules: parseRulesFile(file.path, next, file.layer, python) } : {}),
    };
    const relisted = codexListing({ ...stores, files: [nextFile] }, input).located.filter(
      (l) => l.file.path === file.path && l.entry.rule === ruleText,
    );
    const changedAt = firstDifferentLine(file.text, next);
    const added = relisted.find((l) => l.entry.line >= changedAt) ?? relisted[relisted.length - 1];
    if (!added) throw new InvalidInputError("the rule did not read back as written; nothing was written");
    const written = await commit(stores, file, next, { before: 0, after: added.entry.line }, input.dryRun);
    return { ...written, id: added.entry.id, unchanged: false };
  },

  async lint(scope) {
    const { stores, listing } = await read(scope);
    return { findings: lintCodex(listing, stores.policy.failure), entries: listing.entries.length };
  },

  workspaceFiles(scope) {
    const dot = path.join(path.resolve(scope.workspace), ".codex");
    return [path.join(dot, "rules", "default.rules"), path.join(dot, "config.toml"), path.join(dot, "hooks.json")];
  },
};

function firstDifferentLine(a: string, b: string): number {
  const x = a.split("\n");
  const y = b.split("\n");
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}
