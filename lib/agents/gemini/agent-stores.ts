/**
 * Gemini's stores behind the agent interface: list every policy file by tier, the settings-derived rules and folder
 * trust; revoke, narrow and add `[[rule]]` tables in place (toml-eslint-parser ranges: comments, blank lines and key
 * order stay; each result re-read as Gemini reads it, refused if it would break the file or add an error). Writes are
 * compare-and-swap on the listed version; built-in, extension and admin files are read-only.
 */
import path from "node:path";
import { findNodeAtLocation, parse as parseJsonc, parseTree, type ParseError } from "jsonc-parser";
import type { Scope } from "@/lib/policy";
import { readNoFollow, writeAtomically } from "@/lib/stores/atomic-write";
import {
  ConflictError,
  InvalidInputError,
  InvalidStoreError,
  NarrowingRefusedError,
  NotFoundError,
  ReadOnlyStoreError,
} from "@/lib/stores/errors";
import type { AgentStores, EntryTarget, StoreScope, StoreWrite } from "../types";
import { readGemini } from "./agent-engine";
import { removeMember } from "./hooks";
import { lintGemini } from "./lint";
import { geminiLocations, WORKSPACE_POLICIES_ENABLED } from "./io/stores";
import { entryId, geminiListing, settingPath, TIER_SCOPE, type GeminiListing } from "./listing";
import { applyRemembered } from "./remember";
import { parseRuleLine, ruleLine, TO_GEMINI } from "./rule-text";
import { editRule, revokeRule, TomlEditError, type RuleSpec, type TomlValue } from "./toml-edit";
import { parsePolicyFile } from "./toml-policy";
import { SHELL_TOOL_NAMES } from "./names";
import { ALWAYS_ALLOW_PRIORITY_FRACTION, type TierName } from "./types";

const GLOBAL_WARNING = "global entry: this file affects every project";
const RANK = { allow: 0, ask_user: 1, deny: 2 } as const;

async function read(scope: StoreScope): Promise<GeminiListing & { loc: ReturnType<typeof geminiLocations> }> {
  const { stores, paths, versions } = await readGemini(scope, scope.cwd);
  return {
    ...geminiListing({ stores, workspace: path.resolve(scope.workspace), home: path.resolve(scope.home), versions }),
    loc: geminiLocations(paths),
  };
}

function lineText(text: string, line: number): string {
  return line > 0 ? (text.split("\n")[line - 1]?.replace(/\r$/, "") ?? "") : "";
}

/** The 1-based line of the nth `[[rule]]` header of a text. */
function headerLine(text: string, index: number, tier: TierName): number {
  return parsePolicyFile({ file: "x.toml", content: text, tier }).tables.find((t) => t.index === index)?.line ?? 0;
}

function refused(error: unknown): never {
  if (error instanceof TomlEditError) throw new InvalidInputError(error.message);
  throw error;
}

/** Root below which no path component may be a symlink: `~/.gemini` for the user's files, else the workspace. */
function rootOf(file: string, scope: StoreScope): string {
  const gem = `${path.sep}.gemini${path.sep}`;
  const at = file.indexOf(gem);
  if (at >= 0) return file.slice(0, at);
  return path.resolve(scope.workspace);
}

async function locateTable(target: EntryTarget) {
  const listing = await read(target);
  const found = listing.located.find((l) => l.entry.id === target.id);
  if (!found) throw new NotFoundError(`no entry ${target.id} — refresh`);
  if (target.expectedVersion && target.expectedVersion !== found.entry.store.version) throw new ConflictError();
  if (found.target.kind === "setting")
    throw new NarrowingRefusedError(
      "cannot prove narrower: only a tools.allowed or tools.core shell entry narrows in place (to a longer command prefix); revoke this one and add a [[rule]] in ~/.gemini/policies",
    );
  if (found.target.kind !== "table" || !found.entry.writable) {
    const info = listing.stores.find((s) => s.path === found.entry.store.path);
    throw new ReadOnlyStoreError(
      `${found.entry.store.path} is read-only${info?.readOnlyReason ? `: ${info.readOnlyReason}` : ""}`,
    );
  }
  return { listing, entry: found.entry, file: found.target.file, index: found.target.index };
}

async function commit(
  file: string,
  scope: StoreScope,
  version: string,
  next: (text: string) => string,
  line: (before: string, after: string) => { before: number; after: number },
  storeScope: Scope,
  dryRun: boolean | undefined,
): Promise<Omit<StoreWrite, "entry">> {
  const current = await readNoFollow(file);
  if (current.version !== version) throw new ConflictError();
  if (current.decodeError) throw new InvalidStoreError(`${file}: ${current.decodeError} — it is never overwritten`);
  let after: string;
  try {
    after = next(current.text);
  } catch (error) {
    refused(error);
  }
  const lines = line(current.text, after);
  const written = dryRun
    ? { version }
    : await writeAtomically({ file, root: rootOf(file, scope), expectedVersion: version, content: after });
  return {
    store: file,
    scope: storeScope,
    before: { version, line: lines.before, text: lineText(current.text, lines.before) },
    after: { version: written.version, line: lines.after, text: lineText(after, lines.after) },
    ...(storeScope === "global" ? { scopeWarning: GLOBAL_WARNING } : {}),
    ...(dryRun ? { dryRun: true } : {}),
  };
}

/**
 * Revoke a settings-derived rule: remove its own element (`tools.allowed[2]`) or `mcpServers.<n>.trust` from the
 * settings file with jsonc-parser, every other byte (comments included) kept. Null when the entry is no setting.
 */
async function locateSetting(target: EntryTarget): Promise<StoreWrite | null> {
  const listing = await read(target);
  const found = listing.located.find((l) => l.entry.id === target.id);
  if (!found || found.target.kind !== "setting") return null;
  const { entry } = found;
  const at = settingPath(found.target.setting);
  if (!entry.writable || !at)
    throw new ReadOnlyStoreError(
      `${found.target.setting} in ${entry.store.path} cannot be revoked on its own: ${
        /\(/.test(found.target.setting)
          ? "it follows from the other entries of its setting; revoke those"
          : found.target.setting.startsWith("tools.exclude")
            ? "tools.exclude joins every settings file's list; edit the files"
            : "the file is not yours to edit here"
      }`,
    );
  if (target.expectedVersion && target.expectedVersion !== entry.store.version) throw new ConflictError();
  const file = entry.store.path;
  const scope = entry.scope;
  const settingName = found.target.setting;
  const written = await commit(
    file,
    target,
    entry.store.version,
    (text) => {
      const tree = parseTree(text, [], { allowTrailingComma: true });
      const node = tree ? findNodeAtLocation(tree, at) : undefined;
      // An array element is its own node; a property's value sits in its property node.
      const member = node && typeof at[at.length - 1] === "string" ? node.parent : node;
      if (!member?.parent) throw new TomlEditError(`${settingName} is no longer in ${file}`);
      const next = removeMember(text, member.parent, member);
      const errors: ParseError[] = [];
      parseJsonc(next, errors, { allowTrailingComma: true });
      if (errors.length) throw new TomlEditError("the edit would break the settings file; nothing was written");
      return next;
    },
    (before) => {
      const tree = parseTree(before, [], { allowTrailingComma: true });
      const node = tree ? findNodeAtLocation(tree, at) : undefined;
      const line = node ? before.slice(0, node.offset).split("\n").length : 0;
      return { before: line, after: line };
    },
    scope,
    target.dryRun,
  );
  return { ...written, entry };
}

/** A `tools.allowed`/`tools.core` entry as Gemini reads it: `TOOL` or `TOOL(COMMAND PREFIX)` (settings-rules.ts). */
const LEGACY_ENTRY = /^([a-zA-Z0-9_-]+)(?:\((.*)\))?$/s;

/**
 * The narrower text of a `tools.allowed[i]` / `tools.core[i]` entry. Only a shell entry narrows in place: to a longer
 * command prefix, word by word (`run_shell_command(git)` → `run_shell_command(git status)`), or from the bare shell tool
 * to one prefix. Gemini compiles a prefix to `"command":"<prefix>` followed by whitespace or a quote, so every command
 * the longer prefix matches, the shorter one matched; a legacy prefix also adds the hidden "Narrowing Enforcement" deny
 * on the shell tool (tools.allowed), which only ever denies more. The tool name stays as written.
 */
export function narrowedSettingEntry(setting: string, from: string, to: string): string {
  const key = /^(tools\.(?:allowed|core))\[\d+\]$/.exec(setting)?.[1];
  if (!key)
    throw new NarrowingRefusedError(
      `cannot prove narrower: ${setting} has no narrower form; revoke it and add a [[rule]] in ~/.gemini/policies`,
    );
  // The listing shows a setting's entry as "tools.allowed[0]: …": the same prefix on --to is allowed.
  const spec = to.trim().startsWith(`${setting}:`)
    ? to
        .trim()
        .slice(setting.length + 1)
        .trim()
    : to.trim();
  if (spec === "allow" || spec === "ask" || spec === "deny")
    throw new NarrowingRefusedError(
      `cannot prove narrower: a ${key} entry has no decision of its own; narrow it to a longer command prefix, or revoke it and add an ask or deny [[rule]] in ~/.gemini/policies`,
    );
  const was = LEGACY_ENTRY.exec(from.trim());
  const now = LEGACY_ENTRY.exec(spec);
  if (!now)
    throw new InvalidInputError(
      `--to: a ${key} entry is TOOL or TOOL(COMMAND PREFIX), e.g. run_shell_command(git status)`,
    );
  const isShell = (name: string) => SHELL_TOOL_NAMES.includes(name);
  if (!was || !isShell(was[1]!) || !isShell(now[1]!))
    throw new NarrowingRefusedError(
      `cannot prove narrower: only a shell entry of ${key} narrows in place (to a longer command prefix); revoke this one and add a [[rule]] in ~/.gemini/policies`,
    );
  const oldPrefix = was[2];
  const newPrefix = now[2];
  if (newPrefix === undefined || !newPrefix.trim())
    throw new NarrowingRefusedError(
      "cannot prove narrower: the new entry needs a command prefix, e.g. run_shell_command(git status)",
    );
  if (
    oldPrefix !== undefined &&
    !(
      oldPrefix.trim() &&
      newPrefix.startsWith(`${oldPrefix} `) &&
      newPrefix.length > oldPrefix.length + 1 &&
      newPrefix.slice(oldPrefix.length + 1).trim()
    )
  )
    throw new NarrowingRefusedError(
      `cannot prove narrower: ${spec} does not extend the prefix "${oldPrefix}" by whole words`,
    );
  if (/[\r\n]/.test(newPrefix)) throw new InvalidInputError("--to: a command prefix is one line");
  return `${was[1]}(${newPrefix})`;
}

/** Narrow a settings-derived entry in place (jsonc-parser: only the string changes). Null when the entry is no setting. */
async function narrowSetting(
  target: EntryTarget & { to: string },
): Promise<(StoreWrite & { from: string; to: string }) | null> {
  const listing = await read(target);
  const found = listing.located.find((l) => l.entry.id === target.id);
  if (!found || found.target.kind !== "setting") return null;
  const { entry } = found;
  const settingName = found.target.setting;
  const at = settingPath(settingName);
  if (!entry.writable || !at)
    throw new NarrowingRefusedError(
      `cannot prove narrower: ${settingName} in ${entry.store.path} cannot be edited on its own; revoke or edit the file`,
    );
  if (target.expectedVersion && target.expectedVersion !== entry.store.version) throw new ConflictError();
  const file = entry.store.path;
  const current = await readNoFollow(file);
  const node = (text: string) => {
    const tree = parseTree(text, [], { allowTrailingComma: true });
    const n = tree ? findNodeAtLocation(tree, at) : undefined;
    if (!n || n.type !== "string") throw new TomlEditError(`${settingName} is no longer in ${file}`);
    return n;
  };
  let fromText: string;
  try {
    fromText = node(current.text).value as string;
  } catch (error) {
    refused(error);
  }
  const toText = narrowedSettingEntry(settingName, fromText, target.to);
  const written = await commit(
    file,
    target,
    entry.store.version,
    (text) => {
      const n = node(text);
      const next = text.slice(0, n.offset) + JSON.stringify(toText) + text.slice(n.offset + n.length);
      const errors: ParseError[] = [];
      parseJsonc(next, errors, { allowTrailingComma: true });
      if (errors.length) throw new TomlEditError("the edit would break the settings file; nothing was written");
      return next;
    },
    (before) => {
      const line = before.slice(0, node(before).offset).split("\n").length;
      return { before: line, after: line };
    },
    entry.scope,
    target.dryRun,
  );
  return { ...written, entry, from: `${settingName}: ${fromText}`, to: `${settingName}: ${toText}` };
}

/**
 * Every command prefix of `next` is one of `from`'s or extends one by whole words (`git` → `git status`): Gemini
 * compiles `commandPrefix` to `"command":"<prefix>` plus whitespace or a quote, so the longer prefix matches a subset.
 */
function prefixesNarrower(from: unknown, next: unknown): boolean {
  const list = (v: unknown) => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string");
  const was = list(from);
  const now = list(next);
  if (!was.length || !now.length || now.length !== (Array.isArray(next) ? next.length : 1)) return false;
  return now.every((p) => was.some((w) => p === w || (p.startsWith(`${w} `) && p.slice(w.length + 1).trim() !== "")));
}

/** The narrower table a `--to` spec names: a decision word (stricter only), or a whole rule proved narrower. */
function narrowed(from: Record<string, unknown>, to: string): Record<string, unknown> {
  const spec = to.trim();
  const fromDecision = from.decision as keyof typeof RANK;
  if (spec === "allow" || spec === "ask" || spec === "deny") {
    const d = TO_GEMINI[spec];
    if (RANK[d] <= RANK[fromDecision])
      throw new NarrowingRefusedError(`cannot prove narrower: ${spec} is not stricter than ${fromDecision}`);
    return { ...from, decision: d };
  }
  const parsed = parseRuleLine(spec);
  if (!parsed.ok) throw new InvalidInputError(`--to: ${parsed.error}`);
  const next = parsed.table;
  const nextDecision = next.decision as keyof typeof RANK;
  // Proof for an allow rule: same rule with more conditions (a narrower match), same or stricter decision, no higher
  // priority. Every key the old rule had must stay as it was; new keys only add conditions.
  const CONDITIONS = ["commandPrefix", "commandRegex", "argsPattern", "mcpName", "subagent", "toolAnnotations"];
  const same = (k: string) => JSON.stringify(from[k]) === JSON.stringify(next[k]);
  if (RANK[nextDecision] < RANK[fromDecision])
    throw new NarrowingRefusedError(`cannot prove narrower: ${nextDecision} allows more than ${fromDecision}`);
  if (
    fromDecision !== "allow" &&
    !["decision", "denyMessage", "deny_message"].every((k) => k === "decision" || same(k))
  )
    throw new NarrowingRefusedError("cannot prove narrower: a deny or ask rule narrows only to a stricter decision");
  for (const k of Object.keys(from)) {
    if (k === "decision" || k === "denyMessage" || k === "deny_message") continue;
    if (k === "priority") {
      if (Number(next.priority) > Number(from.priority))
        throw new NarrowingRefusedError("cannot prove narrower: a higher priority can override more rules");
      continue;
    }
    if (k === "modes") {
      const was = new Set(from.modes as string[]);
      const now = (next.modes as string[] | undefined) ?? null;
      if (!now || !now.every((m) => was.has(m)))
        throw new NarrowingRefusedError("cannot prove narrower: the new modes are not a subset of the old ones");
      continue;
    }
    if (k === "commandPrefix" && fromDecision === "allow" && prefixesNarrower(from.commandPrefix, next.commandPrefix))
      continue;
    if (!same(k)) throw new NarrowingRefusedError(`cannot prove narrower: ${k} changes`);
  }
  const added = Object.keys(next).filter((k) => !(k in from));
  for (const k of added)
    if (![...CONDITIONS, "modes", "interactive", "denyMessage", "deny_message"].includes(k))
      throw new NarrowingRefusedError(`cannot prove narrower: ${k} is not a condition`);
  if (
    fromDecision === "allow" &&
    nextDecision === "allow" &&
    added.length === 0 &&
    same("modes") &&
    same("priority") &&
    same("commandPrefix")
  )
    throw new NarrowingRefusedError("cannot prove narrower: nothing changes");
  if (fromDecision === "allow" && added.some((k) => k === "commandPrefix" || k === "commandRegex")) {
    const tool = from.toolName;
    if (tool !== "run_shell_command")
      throw new NarrowingRefusedError(
        "cannot prove narrower: commandPrefix/commandRegex apply to run_shell_command only",
      );
  }
  return next;
}

export const stores: AgentStores = {
  async list(scope) {
    const l = await read(scope);
    return { entries: l.entries, stores: l.stores, ...(l.banner ? { banner: l.banner } : {}) };
  },

  async revoke(target) {
    const setting = await locateSetting(target);
    if (setting) return setting;
    const { entry, file, index } = await locateTable(target);
    const written = await commit(
      file.path,
      target,
      entry.store.version,
      (text) => revokeRule(text, index, file.tier),
      () => ({ before: entry.line, after: entry.line }),
      TIER_SCOPE[file.tier],
      target.dryRun,
    );
    return { ...written, entry };
  },

  async narrow(target) {
    const setting = await narrowSetting(target);
    if (setting) return setting;
    const { entry, file, index } = await locateTable(target);
    const table = file.tables.find((t) => t.index === index)!;
    const next = narrowed(table.value, target.to);
    const changes: Partial<Record<keyof RuleSpec, TomlValue | undefined>> = {};
    for (const k of new Set([...Object.keys(table.value), ...Object.keys(next)]))
      if (JSON.stringify(table.value[k]) !== JSON.stringify(next[k]))
        (changes as Record<string, unknown>)[k] = next[k] as TomlValue | undefined;
    const written = await commit(
      file.path,
      target,
      entry.store.version,
      (text) => editRule(text, index, changes, file.tier),
      (_b, a) => ({ before: entry.line, after: headerLine(a, index, file.tier) }),
      TIER_SCOPE[file.tier],
      target.dryRun,
    );
    return { ...written, entry, from: entry.rule, to: ruleLine(next) };
  },

  async add(input) {
    if (input.scope === "workspace" && !WORKSPACE_POLICIES_ENABLED)
      throw new InvalidInputError(
        "Gemini CLI 0.61.0 does not load workspace policies (.gemini/policies): add the rule at global scope (~/.gemini/policies)",
      );
    const want = TO_GEMINI[input.action];
    // The action gives the decision when the text leaves it out (`--action deny --rule 'toolName = …'`).
    const parsed = parseRuleLine(input.rule, "user", { decision: want });
    if (!parsed.ok) throw new InvalidInputError(parsed.error);
    const table = { ...parsed.table };
    if (table.decision !== want)
      throw new InvalidInputError(
        `the rule says decision "${String(table.decision)}" but the action is ${input.action}`,
      );
    const listing = await read(input);
    const fileName = input.file ?? "auto-saved.toml";
    if (!/^[^/\\]+\.toml$/.test(fileName))
      throw new InvalidInputError(`--file: a Gemini policy file is NAME.toml, not "${fileName}"`);
    const file = path.join(listing.loc.userPolicies, fileName);
    const listed = listing.stores.find((s) => s.path === file);
    if (listed && !listed.valid)
      throw new InvalidStoreError(`${file} is invalid (${listed.error}) — fix it first; it is never overwritten`);
    const version = listed?.version ?? "missing";
    if (input.expectedVersion && input.expectedVersion !== version) throw new ConflictError();
    const spec = table as unknown as RuleSpec;
    const text = ruleLine(table);
    // "Allow for all future sessions" as Gemini writes it: the same rule again gets the new modes, not a duplicate.
    const remembered = fileName === "auto-saved.toml" && spec.priority === ALWAYS_ALLOW_PRIORITY_FRACTION;
    let unchanged = false;
    const written = await commit(
      file,
      input,
      version,
      (before) => {
        const r = remembered
          ? applyRemembered(before, { rule: spec, summary: "" })
          : { text: addTable(before, parsed.toml), updated: false };
        unchanged = r.text === before;
        return r.text;
      },
      (_b, a) => {
        const tables = parsePolicyFile({ file, content: a, tier: "user" }).tables;
        const mine = [...tables].reverse().find((t) => ruleLine(t.value) === text) ?? tables.at(-1);
        return { before: 0, after: mine?.line ?? 0 };
      },
      "global",
      input.dryRun || undefined,
    );
    return { ...written, id: entryId(file, text, 0), unchanged };
  },

  async lint(scope) {
    const { stores, versions } = await readGemini(scope, scope.cwd);
    const listing = geminiListing({
      stores,
      workspace: path.resolve(scope.workspace),
      home: path.resolve(scope.home),
      versions,
    });
    return {
      findings: lintGemini(listing, stores),
      entries: listing.entries.filter((e) => e.scope !== "managed").length,
    };
  },

  workspaceFiles(scope) {
    const dot = path.join(path.resolve(scope.workspace), ".gemini");
    return [path.join(dot, "settings.json"), path.join(dot, "policies")];
  },
};

/** Append one `[[rule]]` table (already checked) at the end of a policy file's text, as `addRule` does. */
function addTable(text: string, toml: string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let prefix = text;
  if (prefix && !prefix.endsWith("\n")) prefix += eol;
  if (prefix.trim()) prefix += eol;
  const after = prefix + toml.replace(/\n/g, eol);
  const check = parsePolicyFile({ file: "x.toml", content: after, tier: "user" });
  if (check.invalid) throw new TomlEditError(`the rule would make the file invalid: ${check.errors[0]?.details ?? ""}`);
  if (text.trim() && parsePolicyFile({ file: "x.toml", content: text, tier: "user" }).invalid)
    throw new TomlEditError("the file is not valid TOML, so it is left as it is");
  return after;
}
