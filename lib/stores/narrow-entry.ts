import path from "node:path";
import { InvalidInputError, NarrowingRefusedError, ReadOnlyStoreError } from "@/lib/errors";
import { appendJsonRule } from "./json-append";
import { removeJsonRule, replaceJsonRule } from "./json-edit";
import { parseJsonSettings } from "./json-format";
import { abbreviateFormPaths, abbreviateHome, expandHome } from "./home-paths";
import type { LoadedStore } from "./load-store";
import { isAction, parseModifiers, type Modifier } from "./narrow-spec";
import { applySplices, removeItemSplice, removePairSplice, type Splice } from "./plist-edit";
import { parsePlistStore, type PlistRawEntry } from "./plist-format";
import {
  parsePlistRule,
  parseTextRule,
  proveEntryNarrower,
  type EntrySpec,
  type Grant,
  type RuleSource,
} from "./policy-adapter";
import { isSessionEntryId } from "./session";
import { printString, readPlist, type Datum } from "@/lib/sexp/read";
import type { LocatedEntry } from "./types";
import {
  assertWritable,
  commitStore,
  findEntry,
  linesAround,
  scopeWarning,
  type EntryRef,
  type WriteResult,
} from "./write-common";

export interface NarrowEntryInput extends EntryRef {
  to: string;
}

export interface NarrowResult extends WriteResult {
  from: string;
  to: string;
}

const refusal = (reason: string) =>
  reason.startsWith("cannot prove narrower") ? reason : `cannot prove narrower: ${reason}; revoke and add instead`;

interface NarrowPlan {
  next: string;
  newText: string;
  /** Offset in `next` where the new entry starts. */
  at: number;
  oldSpec: EntrySpec;
  newSpec: EntrySpec;
}

/** Check a narrowing without writing (the dialog's live "narrower ✓ / cannot prove narrower: …"). */
export async function previewNarrowing(
  input: NarrowEntryInput,
): Promise<{ proved: true; to: string } | { proved: false; reason: string }> {
  try {
    const { store, located } = await findEntry(input);
    const plan = planNarrowing(store, located, input.to, path.resolve(input.home));
    const proof = proveEntryNarrower(plan.oldSpec, plan.newSpec);
    return proof.proved ? { proved: true, to: plan.newText } : { proved: false, reason: refusal(proof.reason) };
  } catch (error) {
    return { proved: false, reason: (error as Error).message };
  }
}

/** Replace an entry in place with one the engine proves narrower; refuse with its reason otherwise. */
export async function narrowEntry(input: NarrowEntryInput): Promise<NarrowResult> {
  if (isSessionEntryId(input.id)) throw new ReadOnlyStoreError("session entries can be revoked, not narrowed");
  const { store, located } = await findEntry(input);
  assertWritable(store, input.expectedVersion);
  const plan = planNarrowing(store, located, input.to, path.resolve(input.home));
  const proof = proveEntryNarrower(plan.oldSpec, plan.newSpec);
  if (!proof.proved) throw new NarrowingRefusedError(refusal(proof.reason));
  const text = store.bytes.text;
  const { start, end } = located.location;
  const written = await commitStore(store, plan.next, input.dryRun);
  return {
    store: store.info.path,
    scope: store.info.scope,
    from: located.entry.rule,
    to: plan.newText,
    before: { version: store.info.version, ...linesAround(text, start, end) },
    after: { version: written.version, ...linesAround(plan.next, plan.at, plan.at + 1) },
    scopeWarning: scopeWarning(store.info.scope),
    ...(input.dryRun ? { dryRun: true } : {}),
  };
}

function planNarrowing(store: LoadedStore, located: LocatedEntry, to: string, home: string): NarrowPlan {
  const spec = to.trim();
  if (!spec) throw new InvalidInputError("empty SPEC");
  const source: RuleSource = { scope: store.info.scope, store: store.info.path, base: store.info.base };
  return store.plist ? planPlist(store, located, spec, home, source) : planJson(store, located, spec, source);
}

function planJson(store: LoadedStore, located: LocatedEntry, spec: string, source: RuleSource): NarrowPlan {
  const { entry, location } = located;
  const agent = entry.agent;
  const old = parseTextRule(entry.rule, entry.action, agent, source);
  if (!old.ok)
    throw new NarrowingRefusedError(
      `cannot prove narrower: the current rule is malformed (${old.error}) — revoke and add instead`,
    );
  const action = isAction(spec) ? spec : entry.action;
  const newText = isAction(spec) ? entry.rule : spec;
  if (action === entry.action && newText === entry.rule) throw new InvalidInputError("the SPEC names the same entry");
  const parsed = parseTextRule(newText, action, agent, source);
  if (!parsed.ok) throw new InvalidInputError(`invalid rule: ${parsed.error}`);
  const text = store.bytes.text;
  let next: string;
  let at: number;
  if (action === entry.action) {
    next = replaceJsonRule(text, action, location.index!, entry.rule, newText);
    at = location.start;
  } else {
    next = appendJsonRule(removeJsonRule(text, entry.action, location.index!, entry.rule), action, newText);
    const reparsed = parseJsonSettings(next, store.info.format === "claude-json");
    if (!reparsed.ok) throw new InvalidInputError(`edit would not parse: ${reparsed.error}`);
    at = reparsed.entries.filter((e) => e.action === action && e.text === newText).at(-1)!.start;
  }
  return {
    next,
    newText: isAction(spec) ? `${action} ${newText}` : newText,
    at,
    oldSpec: { kind: "rule", action: entry.action, rule: old.value },
    newSpec: { kind: "rule", action, rule: parsed.value },
  };
}

function planPlist(
  store: LoadedStore,
  located: LocatedEntry,
  spec: string,
  home: string,
  source: RuleSource,
): NarrowPlan {
  const text = store.bytes.text;
  const raw = store.plist!.entries.find((e) => e.start === located.location.start)!;
  const splices = spec.startsWith("(")
    ? [replaceForm(raw, spec, home)]
    : modifierSplices(text, raw, parseModifiers(spec), home, store.plist!.doc.comments);
  const sorted = [...splices].sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < sorted.length; k++)
    if (sorted[k][0] < sorted[k - 1][1]) throw new InvalidInputError("SPEC items overlap");
  const next = applySplices(text, splices);
  const reparsed = parsePlistStore(next);
  if (!reparsed.ok) throw new InvalidInputError(`edit would not parse: ${reparsed.error}`);
  const newRaw = reparsed.entries.find((e) => e.list === raw.list && e.start === raw.start);
  if (!newRaw)
    throw new InvalidInputError("the SPEC must keep the entry a " + (raw.list === "rules" ? "rule" : "resource grant"));
  if (newRaw.text === raw.text) throw new InvalidInputError("the SPEC names the same entry");
  const oldSpec = entrySpec(raw, source, home, "current");
  const newSpec = entrySpec(newRaw, source, home, "new");
  if (oldSpec.kind === "profile" && newSpec.kind === "rule") {
    newSpec.kind = "profile";
    newSpec.profile = { network: false, fileSystem: [] };
  }
  return { next, newText: newRaw.text, at: newRaw.start, oldSpec, newSpec };
}

const expandGrant = (g: Grant, home: string): Grant => ({ ...g, path: expandHome(g.path, home) });

function entrySpec(raw: PlistRawEntry, source: RuleSource, home: string, which: string): EntrySpec {
  if (raw.grant) return { kind: "grant", action: "allow", grant: expandGrant(raw.grant, home) };
  const parsed = parsePlistRule(raw.rule!, source);
  if (!parsed.ok) {
    if (which === "current")
      throw new NarrowingRefusedError(
        `cannot prove narrower: the current rule is malformed (${parsed.error}) — revoke and add instead`,
      );
    throw new InvalidInputError(`invalid rule: ${parsed.error}`);
  }
  const rule = parsed.value;
  const profile = rule.profile && {
    network: rule.profile.network,
    fileSystem: rule.profile.fileSystem.map((g) => expandGrant(g, home)),
  };
  return { kind: raw.kind, action: raw.action, rule: { ...rule, profile }, ...(profile ? { profile } : {}) };
}

/** A full replacement form; `:path` strings under home are written back as `~/…`. */
function replaceForm(raw: PlistRawEntry, form: string, home: string): Splice {
  return [raw.start, raw.end, abbreviateFormPaths(form, home)];
}

function itemIndex(items: Datum[], key: Datum): number {
  return items.indexOf(key);
}

function grantOps(text: string, grant: Datum, ops: Modifier[], home: string): Splice[] {
  if (grant.type !== "list") throw new InvalidInputError("not a grant");
  const fields = readPlist(text, grant, "grant");
  const out: Splice[] = [];
  for (const op of ops) {
    if (op.op === "exact" || op.op === "fs-exact") {
      const f = fields.get(":recursive");
      if (!f || f.value.type === "nil") throw new InvalidInputError("the grant is already exact");
      out.push(removePairSplice(text, grant.items, itemIndex(grant.items, f.key)));
    } else if (op.op === "read" || op.op === "fs-read") {
      const f = fields.get(":access")!;
      if (f.value.type === "symbol" && f.value.name === "read")
        throw new InvalidInputError("the grant is already read-only");
      out.push([f.value.start, f.value.end, "read"]);
    } else if (op.op === "specifier" && op.key === "path") {
      const f = fields.get(":path")!;
      out.push([f.value.start, f.value.end, printString(abbreviateHome(expandHome(op.value, home), home))]);
    } else throw new InvalidInputError(`a resource grant cannot take "${op.op}"`);
  }
  return out;
}

function samePath(a: string, b: string, home: string): boolean {
  return path.resolve(expandHome(a, home)) === path.resolve(expandHome(b, home));
}

function modifierSplices(
  text: string,
  raw: PlistRawEntry,
  mods: Modifier[],
  home: string,
  comments: { start: number; end: number }[],
): Splice[] {
  if (raw.grant) return grantOps(text, raw.datum, mods, home);
  const items = (raw.datum as Datum & { type: "list" }).items;
  const out: Splice[] = [];
  for (const mod of mods) {
    switch (mod.op) {
      case "action": {
        const f = raw.fields.get(":action")!;
        out.push([f.value.start, f.value.end, mod.action]);
        break;
      }
      case "specifier": {
        const value = mod.key === "path" ? abbreviateHome(expandHome(mod.value, home), home) : mod.value;
        const existing = raw.fields.get(`:${mod.key}`);
        const other = ["pattern", "path", "domain", "name", "expression"].find(
          (k) => k !== mod.key && raw.fields.has(`:${k}`),
        );
        if (other) throw new InvalidInputError(`a rule has one specifier and this one uses :${other}`);
        if (existing) out.push([existing.value.start, existing.value.end, printString(value)]);
        else out.push([items[0].end, items[0].end, ` :${mod.key} ${printString(value)}`]);
        break;
      }
      case "network-off": {
        const net = raw.fields.get(":network");
        if (!net || net.value.type === "nil") throw new InvalidInputError("network is already off");
        out.push(removePairSplice(text, items, itemIndex(items, net.key)));
        break;
      }
      case "drop-fs":
      case "fs-exact":
      case "fs-read": {
        const fsList = raw.fields.get(":file-system")?.value;
        const grants = fsList?.type === "list" ? fsList.items : [];
        const index = grants.findIndex((g) => {
          if (g.type !== "list") return false;
          const p = readPlist(text, g, "grant").get(":path")?.value;
          return p?.type === "string" && samePath(p.value, mod.path, home);
        });
        if (index < 0) throw new InvalidInputError(`the profile has no :file-system entry for ${mod.path}`);
        if (mod.op === "drop-fs") out.push(removeItemSplice(text, grants, index, comments));
        else out.push(...grantOps(text, grants[index], [mod], home));
        break;
      }
      default:
        throw new InvalidInputError(`a rule cannot take "${mod.op}" (that is for grants)`);
    }
  }
  return out;
}
