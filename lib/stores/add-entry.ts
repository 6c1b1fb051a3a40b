import path from "node:path";
import { targetStore, type StorePaths } from "./discover";
import { InvalidInputError } from "@/lib/errors";
import { appendJsonRule } from "./json-append";
import { abbreviateFormPaths, readOneForm } from "./home-paths";
import { loadStore, parseStore, type LoadedStore } from "./load-store";
import { decodeStore } from "./read-store";
import { addKeySplice, appendItemSplice, applySplices } from "./plist-edit";
import { parsePlistStore } from "./plist-format";
import { formatPlistRule, parsePlistRule, parseTextRule, type RuleSource } from "./policy-adapter";
import { readPlist } from "@/lib/sexp/read";
import type { Action, Agent, LocatedEntry } from "./types";
import { assertWritable, commitStore, linesAround, scopeWarning, type WriteResult } from "./write-common";

export interface AddEntryInput extends StorePaths {
  agent: Agent;
  scope: "workspace" | "global";
  action: Action;
  /**
   * Rule text (`Shell(git status:*)`); for a plist store also a form `("Bash" :pattern "…")` or a grant
   * `(:path "…" :access read)`.
   */
  rule: string;
  /** `settings.json` or `settings.local.json` (JSON agents; default the local file for workspace scope). */
  file?: string;
  expectedVersion?: string;
  /** Compute and check everything, write nothing. */
  dryRun?: boolean;
}

export interface AddResult extends WriteResult {
  /** Id of the new entry (stable while the file is unchanged). */
  id: string;
  /** True when the same entry was already in that store: nothing written. */
  unchanged: boolean;
}

/** Add one explicitly authored entry to a workspace or global store, creating the file if needed. */
export async function addEntry(input: AddEntryInput): Promise<AddResult> {
  let location;
  try {
    location = targetStore(input, input.agent, input.scope, input.file);
  } catch (error) {
    throw new InvalidInputError((error as Error).message);
  }
  const home = path.resolve(input.home);
  const store = await loadStore(location, home);
  assertWritable(store, input.expectedVersion);
  const source: RuleSource = { scope: location.scope, store: location.path, base: location.base };
  const text = store.bytes.text;
  let next: string;
  if (store.plist) {
    const { form, list } = plistForm(input.rule.trim(), input.action, input.agent, source, home);
    const existing = store.located.find((l) => l.location.list === list && l.entry.rule === form);
    if (existing) return unchanged(store, existing);
    const doc = store.plist.doc;
    const key = list === "rules" ? ":rules" : ":resource-grants";
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    if (!doc.top) {
      next =
        list === "rules"
          ? `(:rules${eol} (${form})${eol} :resource-grants nil)${eol}`
          : `(:rules nil${eol} :resource-grants${eol} (${form}))${eol}`;
      if (text.trim() === "" && text.length) next = text + next;
    } else {
      const value = doc.fields.get(key)?.value;
      next = applySplices(text, [
        value ? appendItemSplice(text, value, form) : addKeySplice(text, doc.top, key, `(${form})`),
      ]);
    }
  } else {
    const parsed = parseTextRule(input.rule, input.action, input.agent, source);
    if (!parsed.ok) throw new InvalidInputError(`invalid rule: ${parsed.error}`);
    const ruleText = input.rule.trim();
    const existing = store.located.find((l) => l.entry.action === input.action && l.entry.rule === ruleText);
    if (existing) return unchanged(store, existing);
    next = appendJsonRule(text, input.action, ruleText);
  }
  const written = await commitStore(store, next, input.dryRun);
  if (input.dryRun) {
    const end = changedEnd(text, next);
    return {
      id: "",
      unchanged: false,
      dryRun: true,
      store: store.info.path,
      scope: store.info.scope,
      before: { version: store.info.version, line: 0, text: "" },
      after: { version: written.version, ...linesAround(next, end, end) },
      scopeWarning: scopeWarning(store.info.scope),
    };
  }
  // The text just written, parsed in memory: no second read of the file.
  const after = await parseStore(location, decodeStore(Buffer.from(next, "utf8")), home);
  const added =
    after.located.filter((l) => !store.located.some((o) => o.entry.id === l.entry.id)).at(-1) ?? after.located.at(-1)!;
  return {
    id: added.entry.id,
    unchanged: false,
    store: store.info.path,
    scope: store.info.scope,
    before: { version: store.info.version, line: 0, text: "" },
    after: { version: written.version, ...linesAround(next, added.location.start, added.location.end) },
    scopeWarning: scopeWarning(store.info.scope),
  };
}

function unchanged(store: LoadedStore, existing: LocatedEntry): AddResult {
  const { version, path: file, scope } = store.info;
  const lines = linesAround(store.bytes.text, existing.location.start, existing.location.end);
  return {
    id: existing.entry.id,
    unchanged: true,
    store: file,
    scope,
    before: { version, ...lines },
    after: { version, ...lines },
    scopeWarning: scopeWarning(scope),
  };
}

/**
 * Normalise the text an author gave for a plist store into a plist form: a rule form (its
 * `:action` filled in or checked against `action`), a grant form, or `Tool(spec)` rule text.
 */
function plistForm(
  ruleText: string,
  action: Action,
  agent: Agent,
  source: RuleSource,
  home: string,
): { form: string; list: "rules" | "resource-grants" } {
  if (!ruleText.startsWith("(")) {
    const parsed = parseTextRule(ruleText, action, agent, source);
    if (!parsed.ok) throw new InvalidInputError(`invalid rule: ${parsed.error}`);
    return plistForm(formatPlistRule(parsed.value), action, agent, source, home);
  }
  const form = readOneForm(ruleText);
  // Canonicalise through the store parser so the added text is exactly what listing shows.
  const isGrant = form.items[0]?.type === "keyword";
  let body = abbreviateFormPaths(ruleText, home);
  if (!isGrant) {
    const fields = (() => {
      try {
        return readPlist(body, { ...form, items: form.items.slice(1) }, "rule");
      } catch (error) {
        throw new InvalidInputError((error as Error).message);
      }
    })();
    const given = fields.get(":action")?.value;
    if (given && !(given.type === "symbol" && given.name === action))
      throw new InvalidInputError(
        `the form says :action ${given.type === "symbol" ? given.name : "?"} but --action is ${action}`,
      );
    if (!given) body = `${body.slice(0, -1)} :action ${action})`;
  }
  const wrapped = isGrant ? `(:rules nil :resource-grants (${body}))` : `(:rules (${body}) :resource-grants nil)`;
  const parsed = parsePlistStore(wrapped);
  if (!parsed.ok) throw new InvalidInputError(`invalid form: ${parsed.error.replace(/^line \d+, column \d+: /, "")}`);
  const raw = parsed.entries[0];
  if (raw.rule) {
    const check = parsePlistRule(raw.rule, source);
    if (!check.ok) throw new InvalidInputError(`invalid rule: ${check.error}`);
  }
  return { form: raw.text, list: isGrant ? "resource-grants" : "rules" };
}

/** Offset in `next` just before the last character that differs from `text` (where an insertion ends). */
function changedEnd(text: string, next: string): number {
  let k = 0;
  while (k < text.length && text[text.length - 1 - k] === next[next.length - 1 - k]) k++;
  return Math.max(0, next.length - k - 1);
}
