/**
 * shadowed and conflicting: an allow that a deny/ask always beats, an ask a deny always beats, and pairs of
 * files that disagree about the same calls, by the agent's precedence (`RuleTraits.precedence` in its catalogue
 * entry): deny-first agents check every deny, then every ask, before any allow, whatever file holds them; agents
 * resolving by bucket resolve each bucket on its own (specifier rules outrank generic ones, then deny > ask >
 * allow); a bucket that denies is absolute, and allow/ask are resolved innermost bucket first (session, then
 * workspace+global).
 */
import { agentLabel, STORE_AGENTS } from "@/lib/agents";
import type { Rule } from "@/lib/policy";
import { matcherCovers } from "@/lib/policy/narrow";
import { quote, where } from "./describe";
import { RuleIndex, specText } from "./index-rules";
import { bucketOf, byBucket, sameAnchor } from "./reach";
import type { Finding, LintInput, LintItem } from "./types";
import { enforced } from "./usable";

/** Does `d` (deny/ask) win over allow `a` for a call both match? With the reason, in the agent's terms. */
export function winner(a: LintItem, d: LintItem): { restrictive: boolean; why: string } {
  const dr = d.rule!;
  const buckets = byBucket(a.entry.agent);
  const name = agentLabel(a.entry.agent);
  if (dr.action === "deny" && buckets && !dr.specifier && a.rule!.specifier && bucketOf(a) === bucketOf(d))
    return { restrictive: false, why: `in one ${name} bucket a specifier rule outranks a generic deny` };
  if (dr.action === "deny")
    return {
      restrictive: true,
      why: buckets
        ? "a deny in any bucket is absolute"
        : "deny rules are checked before allow rules, whatever file holds them",
    };
  if (!buckets) return { restrictive: true, why: "ask rules are checked before allow rules, whatever file holds them" };
  const ab = bucketOf(a);
  const db = bucketOf(d);
  if (ab !== db)
    return db === "session"
      ? { restrictive: true, why: `${name} resolves the session bucket before workspace and global rules` }
      : { restrictive: false, why: `${name} resolves the session bucket (which holds the allow) first` };
  const as = a.rule!.specifier !== null;
  const ds = dr.specifier !== null;
  if (ds || !as) return { restrictive: true, why: `in one ${name} bucket ask beats allow at the same specificity` };
  return { restrictive: false, why: `in one ${name} bucket a specifier rule outranks a generic ask` };
}

const comparable = (a: Rule, b: Rule) => sameAnchor(a, b);

export function findShadowed(input: LintInput, items: LintItem[], duplicates = new Set<string>()): Finding[] {
  const rules = items.filter((it) => it.rule && !it.grant && enforced(it.rule));
  const out: Finding[] = [];
  const shadowedIds = new Set<string>();
  // Each agent's rules are ordered by that agent alone: every store agent of the catalogue with rules here, in order.
  for (const agent of STORE_AGENTS.filter((id) => rules.some((it) => it.entry.agent === id))) {
    // Duplicates add nothing: their kept copy is shadowed or conflicts the same way.
    const mine = rules.filter((it) => it.entry.agent === agent && !duplicates.has(it.entry.id));
    const restrictive = mine.filter((it) => it.rule!.action !== "allow");
    const denies = new RuleIndex(restrictive.filter((it) => it.rule!.action === "deny"));
    const asks = new RuleIndex(restrictive.filter((it) => it.rule!.action === "ask"));
    const allows = new RuleIndex(mine.filter((it) => it.rule!.action === "allow"));
    for (const a of mine) {
      const ar = a.rule!;
      if (ar.action === "deny") continue;
      const covering = (idx: RuleIndex) =>
        idx.candidates(ar).filter((d) => comparable(ar, d.rule!) && matcherCovers(d.rule!, ar) === null);
      if (ar.action === "ask") {
        const d = covering(denies)[0];
        if (d)
          out.push({
            kind: "shadowed",
            severity: "info",
            entry: a.entry.id,
            by: d.entry.id,
            message: `ask ${quote(a)} is moot: ${quote(d)} (${where(d, input.workspace, input.home)}) denies every call it would ask about (${winner(a, d).why.replace("allow", "ask")})`,
          });
        continue;
      }
      let shadowed = false;
      for (const d of [...covering(denies), ...covering(asks)]) {
        const w = winner(a, d);
        if (w.restrictive) {
          out.push({
            kind: "shadowed",
            severity: "warning",
            entry: a.entry.id,
            by: d.entry.id,
            message: `allow ${quote(a)} never takes effect: ${quote(d)} (${where(d, input.workspace, input.home)}) ${d.rule!.action === "deny" ? "denies" : "asks about"} every call it matches — ${w.why}`,
          });
          shadowed = true;
          break;
        }
        if (d.entry.store.path !== a.entry.store.path) out.push(conflict(input, a, d, specText(ar) || ar.tool, w));
      }
      if (shadowed) shadowedIds.add(a.entry.id);
    }
    // Carve-outs from another file: the allow is broader, the deny/ask takes a bite out of it.
    for (const d of restrictive) {
      const dr = d.rule!;
      for (const a of allows.candidates(dr)) {
        const ar = a.rule!;
        if (shadowedIds.has(a.entry.id) || d.entry.store.path === a.entry.store.path) continue;
        if (!comparable(ar, dr) || matcherCovers(ar, dr) !== null || matcherCovers(dr, ar) === null) continue;
        out.push(conflict(input, a, d, specText(dr) || dr.tool, winner(a, d)));
      }
    }
  }
  return out;
}

function conflict(
  input: LintInput,
  a: LintItem,
  d: LintItem,
  pattern: string,
  w: { restrictive: boolean; why: string },
): Finding {
  const verb = d.rule!.action === "deny" ? "denies" : "asks about";
  const wins = w.restrictive ? `${d.rule!.action} wins` : "the allow wins";
  return {
    kind: "conflicting",
    severity: "warning",
    entry: a.entry.id,
    by: d.entry.id,
    message: `calls matching ${d.rule!.tool}(${pattern}) are allowed here (${where(a, input.workspace, input.home)}) but ${quote(d)} in ${where(d, input.workspace, input.home)} ${verb} them; ${wins}: ${w.why}`,
  };
}
