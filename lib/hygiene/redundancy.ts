/**
 * duplicate and covered: entries that can go without changing any decision. Both are conservative — a
 * pair is only reported when the keeper reaches everyone the removed entry reaches (reach.ts) and the
 * engine would pick an equivalent rule in every step that looks at which allow rule matched.
 */
import { isNarrower, type Rule } from "@/lib/policy";
import { grantCovers } from "@/lib/policy/narrow";
import { sensitiveWrite } from "@/lib/policy/sensitive";
import { quote, where } from "./describe";
import { RuleIndex, specText } from "./index-rules";
import { bucketOf, byBucket, REACH_RANK, reachesAll, reachOf, sameAnchor, storeAnchored } from "./reach";
import type { Finding, LintInput, LintItem } from "./types";
import { enforced } from "./usable";

const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);

const keys = new WeakMap<LintItem, string | null>();
/** Identity of what an entry authorises (its meaning, not its spelling); cached per item. */
function meaningKey(it: LintItem): string | null {
  let k = keys.get(it);
  if (k === undefined) keys.set(it, (k = computeKey(it)));
  return k;
}

function computeKey(it: LintItem): string | null {
  const e = it.entry;
  if (it.grant) return `${e.agent}\0grant\0${norm(it.grant.path)}\0${it.grant.access}\0${it.grant.recursive}`;
  const r = it.rule;
  if (!r || !enforced(r)) return null;
  const anchor = storeAnchored(r) ? (r.source.base ?? "") : "";
  return [
    e.agent,
    e.kind,
    r.action,
    r.tool.toLowerCase(),
    JSON.stringify(r.specifier),
    JSON.stringify(r.profile ?? null),
    anchor,
  ].join("\0");
}

// An agent resolving by bucket resolves each on its own (a specifier rule outranks a generic one, even a generic
// deny): a copy in the session bucket is not the same as one in the persistent bucket. Only a specifier deny wins
// in any bucket.
const bucketMatters = (it: LintItem) =>
  byBucket(it.entry.agent) && !it.grant && (it.entry.action !== "deny" || it.rule?.specifier === null);

/** Identical entries: keep the one that reaches furthest (then the first in file order), flag the others. */
export function findDuplicates(input: LintInput, items: LintItem[]): Finding[] {
  const groups = new Map<string, LintItem[]>();
  for (const it of items) {
    const k = meaningKey(it);
    if (k === null) continue;
    const g = groups.get(k);
    if (g) g.push(it);
    else groups.set(k, [it]);
  }
  const out: Finding[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const order = group
      .map((it, i) => ({ it, i }))
      .sort((a, b) => REACH_RANK[reachOf(b.it)] - REACH_RANK[reachOf(a.it)] || a.i - b.i)
      .map((x) => x.it);
    const keepers: LintItem[] = [];
    for (const it of order) {
      const keeper = keepers.find((k) => reachesAll(k, it) && (!bucketMatters(it) || bucketOf(k) === bucketOf(it)));
      if (!keeper) {
        keepers.push(it);
        continue;
      }
      const same = keeper.entry.store.path === it.entry.store.path;
      out.push({
        kind: "duplicate",
        severity: "info",
        entry: it.entry.id,
        by: keeper.entry.id,
        message: same
          ? `${quote(it)} appears twice in this file (first at line ${keeper.entry.line}); removing this copy changes no decision`
          : `${quote(it)} is also in ${where(keeper, input.workspace, input.home)}, which the agent merges with this file and which reaches at least as far; removing this copy changes no decision`,
      });
    }
  }
  return out;
}

/** Sensitive names a specifier spells out (`.env`, `.git`, `id_rsa`…): allow rules naming them pass step 10. */
function sensitiveTokens(rule: Rule): string[] {
  const out = new Set<string>();
  for (const w of specText(rule).split(/[\s/'"=<>|;&()]+/)) {
    if (!w || w.includes("*")) continue;
    for (const probe of [`/${w}`, `/${w}/x`]) {
      const s = sensitiveWrite(probe);
      if (s) out.add(s.token);
    }
  }
  return [...out];
}

/** Why B cannot stand in for A in every ladder step that inspects the matching allow rule (null: it can). */
function standIn(a: Rule, b: Rule): boolean {
  if (byBucket(a.agent)) {
    // Specifier rules outrank generic ones inside a bucket: a generic coverer would lose to a generic ask.
    if (a.specifier && !b.specifier) return false;
  } else if (a.specifier && !b.specifier) {
    // Step 3 only pre-approves outside paths through specifier rules. A bare allow indexed under the same
    // tool is always found before a shell rule with a literal first word, so A was never the one used.
    if (a.specifier.kind !== "shell" || a.tool.toLowerCase() !== b.tool.toLowerCase()) return false;
    if (a.specifier.pattern.startsWith("*")) return false;
  }
  // Step 10 passes a sensitive write only when the matching allow names the target: B must name it too.
  const bt = specText(b);
  return sensitiveTokens(a).every((t) => bt.includes(t));
}

/**
 * Allow rules proved narrower than another allow that reaches at least as far. An over-broad coverer does not
 * count: the lint asks for it to go, and the narrow rules it "covers" are the ones to keep.
 */
export function findCovered(
  input: LintInput,
  items: LintItem[],
  duplicates: Set<string>,
  overBroad: Set<string>,
): Finding[] {
  const allows = items.filter((it) => it.rule && !it.grant && it.rule.action === "allow" && enforced(it.rule));
  const byAgent = new Map<string, LintItem[]>();
  for (const it of allows) {
    const l = byAgent.get(it.entry.agent);
    if (l) l.push(it);
    else byAgent.set(it.entry.agent, [it]);
  }
  const out: Finding[] = [];
  for (const list of byAgent.values()) {
    // A duplicate never needs to be the coverer: its kept copy reaches at least as far and means the same.
    const index = new RuleIndex(list.filter((b) => !duplicates.has(b.entry.id)));
    for (const a of list) {
      if (duplicates.has(a.entry.id)) continue;
      const ar = a.rule!;
      let best: LintItem | null = null;
      for (const b of index.candidates(ar)) {
        if (b === a || overBroad.has(b.entry.id) || meaningKey(b) === meaningKey(a)) continue;
        const br = b.rule!;
        if (!reachesAll(b, a) || !sameAnchor(ar, br)) continue;
        if (byBucket(a.entry.agent) && bucketOf(a) !== bucketOf(b)) continue;
        if (!standIn(ar, br)) continue;
        const proof = isNarrower(
          { kind: "rule", action: "allow", rule: br },
          { kind: "rule", action: "allow", rule: ar },
        );
        if (!proof.proved) continue;
        if (!best || REACH_RANK[reachOf(b)] > REACH_RANK[reachOf(best)]) best = b;
      }
      if (best)
        out.push({
          kind: "covered",
          severity: "info",
          entry: a.entry.id,
          by: best.entry.id,
          message: `${quote(a)} is covered by ${quote(best)} (${where(best, input.workspace, input.home)}): every call it allows is already allowed there; removing it changes no decision`,
        });
    }
  }
  // Resource grants are checked as a flat list (any grant covering the path and access will do).
  const grants = items.filter((it) => it.grant);
  for (const a of grants) {
    if (duplicates.has(a.entry.id)) continue;
    const b = grants.find(
      (g) =>
        g !== a &&
        !overBroad.has(g.entry.id) &&
        meaningKey(g) !== meaningKey(a) &&
        reachesAll(g, a) &&
        grantCovers(g.grant!, a.grant!),
    );
    if (b)
      out.push({
        kind: "covered",
        severity: "info",
        entry: a.entry.id,
        by: b.entry.id,
        message: `${quote(a)} is covered by the grant ${quote(b)} (${where(b, input.workspace, input.home)}); removing it changes no decision`,
      });
  }
  return out;
}
