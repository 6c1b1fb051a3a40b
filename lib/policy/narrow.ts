import { posix } from "node:path";
import { callNames } from "./tools";
import type { Action, EntrySpec, Grant, NarrowProof, Rule, Specifier } from "./types";

const RANK: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };
const no = (why: string): NarrowProof => ({
  proved: false,
  reason: `cannot prove narrower: ${why}; revoke and add instead`,
});
const YES: NarrowProof = { proved: true };

/**
 * Prove that `next` authorises a strict subset of what `old` did (same store). Syntactic and conservative:
 * allow rules may shrink their matcher or move to ask/deny; ask/deny rules may only grow or tighten
 * (a smaller deny would deny less, i.e. authorise more). Grants and profiles may only lose reach.
 */
export function isNarrower(old: EntrySpec, next: EntrySpec): NarrowProof {
  if (old.kind !== next.kind) return no(`a ${old.kind} cannot become a ${next.kind}`);
  if (old.kind === "grant") {
    if (!old.grant || !next.grant) return no("grant missing");
    if (sameGrant(old.grant, next.grant)) return no("the new grant is identical");
    return grantCovers(old.grant, next.grant)
      ? YES
      : no(`${fmtGrant(next.grant)} reaches beyond ${fmtGrant(old.grant)}`);
  }
  if (old.kind === "profile") return profileNarrower(old.profile, next.profile);
  const o = old.rule;
  const n = next.rule;
  if (!o || !n) return no("rule missing");
  const oa = old.action ?? o.action;
  const na = next.action ?? n.action;
  if (RANK[na] < RANK[oa]) return no(`${oa} → ${na} loosens the rule`);
  if (oa === "allow") {
    if (n.profile && !profileCovers(o.profile ?? { network: false, fileSystem: [] }, n.profile))
      return no("the new execution profile reaches further");
    if (oa === na && sameMatcher(o, n) && sameProfile(o, n)) return no("the new rule is identical");
    const why = matcherCovers(o, n);
    return why === null ? YES : no(why);
  }
  // A restrictive rule authorises less only when it still catches everything it caught before.
  if (oa === na && sameMatcher(o, n)) return no("the new rule is identical");
  const why = matcherCovers(n, o);
  return why === null ? YES : no(`a ${na} rule must still cover every call the old ${oa} rule caught (${why})`);
}

function sameMatcher(a: Rule, b: Rule): boolean {
  return a.tool.toLowerCase() === b.tool.toLowerCase() && JSON.stringify(a.specifier) === JSON.stringify(b.specifier);
}

function sameProfile(a: Rule, b: Rule): boolean {
  return JSON.stringify(a.profile ?? null) === JSON.stringify(b.profile ?? null);
}

/** Null when every call `inner` matches is matched by `outer`; otherwise why it cannot be shown. */
export function matcherCovers(outer: Rule, inner: Rule): string | null {
  if (!toolCovers(outer.tool, inner.tool)) return `tool ${inner.tool} is not within ${outer.tool}`;
  const os = outer.specifier;
  const is = inner.specifier;
  if (os === null) return null;
  if (is === null) return `${inner.tool} without a specifier matches more than ${outer.text}`;
  if (os.kind !== is.kind) return `specifier kinds differ (${os.kind} vs ${is.kind})`;
  if (JSON.stringify(os) === JSON.stringify(is)) return null;
  switch (os.kind) {
    case "shell":
      return shellCovers(os, is as typeof os)
        ? null
        : `shell pattern "${(is as typeof os).pattern}" is not a provable sub-pattern of "${os.pattern}"`;
    case "path":
      return pathCovers(os.pattern, (is as typeof os).pattern)
        ? null
        : `path "${(is as typeof os).pattern}" is not provably under "${os.pattern}"`;
    case "domain":
      return domainCovers(os.pattern, (is as typeof os).pattern)
        ? null
        : `domain "${(is as typeof os).pattern}" is not within "${os.pattern}"`;
    default:
      return "only identical specifiers of this kind can be compared";
  }
}

const MCP_SERVER = /^mcp__[^_*]+(?:_[^_*]+)*$/i;

/** Does every call the `inner` tool name matches also answer to `outer`? */
function toolCovers(outer: string, inner: string): boolean {
  const o = outer.toLowerCase();
  const i = inner.toLowerCase();
  if (o === i) return true;
  if (o === "*") return true;
  if (o.endsWith("*") && !o.slice(0, -1).includes("*")) {
    const prefix = o.slice(0, -1);
    return i.startsWith(prefix) && (i.indexOf("*") === -1 || i.indexOf("*") >= prefix.length);
  }
  if (MCP_SERVER.test(o) && !o.slice(5).includes("__")) return i.startsWith(o + "__");
  if (i.includes("*")) return false;
  // A family (Edit) covers its members (write_file, Write, MultiEdit…); an exact name covers only itself.
  return callNames(i).includes(o) && familyMembers(i).every((m) => callNames(m).includes(o));
}

// A friendly name in a rule (`Write`) covers several model tools; all of them must answer to the outer name.
function familyMembers(name: string): string[] {
  const members: Record<string, string[]> = {
    shell: ["shell_command", "monitor_command", "kill_shell", "bash"],
    read: ["read_file", "read_directory", "glob", "grep", "read"],
    edit: ["edit_file", "write_file", "edit", "write", "multiedit", "notebookedit", "applypatch"],
    write: ["write_file", "write"],
  };
  return members[name] ?? [name];
}

type Shape =
  | { kind: "exact"; s: string }
  | { kind: "word"; s: string }
  | { kind: "raw"; s: string }
  | { kind: "complex"; lead: string };

/** Classify a shell pattern by what it matches: exact text, word-boundary prefix, raw prefix or anything else. */
function shape(p: Extract<Specifier, { kind: "shell" }>): Shape {
  const pat = p.pattern;
  const star = pat.indexOf("*");
  if (p.dialect !== "glob" && pat.endsWith(" *") && star === pat.length - 1)
    return { kind: "word", s: pat.slice(0, -2) };
  if (star === -1) return p.dialect === "prefix" ? { kind: "word", s: pat } : { kind: "exact", s: pat };
  if (star === pat.length - 1) return { kind: "raw", s: pat.slice(0, -1) };
  return { kind: "complex", lead: pat.slice(0, star) };
}

function shellCovers(o: Extract<Specifier, { kind: "shell" }>, i: Extract<Specifier, { kind: "shell" }>): boolean {
  const so = shape(o);
  const si = shape(i);
  const lead = si.kind === "complex" ? si.lead : si.s;
  switch (so.kind) {
    case "raw":
      return lead.startsWith(so.s);
    case "word":
      if (si.kind === "exact" || si.kind === "word") return si.s === so.s || si.s.startsWith(so.s + " ");
      return lead.startsWith(so.s + " ");
    case "exact":
      return si.kind === "exact" && si.s === so.s;
    default:
      return false;
  }
}

/** `src/**` covers `src/lib/**` and `src/a.ts`; anchors must agree; `..` is never accepted. */
function pathCovers(o: string, i: string): boolean {
  if (i.split("/").includes("..")) return false;
  const anchor = (p: string) =>
    p.startsWith("//")
      ? "//"
      : p.startsWith("~/")
        ? "~/"
        : p.startsWith("/")
          ? "/"
          : p.startsWith("./")
            ? "./"
            : p.includes("/")
              ? "rel/"
              : "bare";
  if (anchor(o) !== anchor(i)) return false;
  if (o.endsWith("/**")) {
    const base = o.slice(0, -3);
    if (/[*?[\]{}]/.test(base)) return false;
    return i === base || i.startsWith(base + "/");
  }
  return posix.normalize(o) === posix.normalize(i);
}

function domainCovers(o: string, i: string): boolean {
  if (o.startsWith("*.")) return i.endsWith(o.slice(1)) && !o.slice(2).includes("*");
  return false;
}

function sameGrant(a: Grant, b: Grant): boolean {
  return norm(a.path) === norm(b.path) && a.access === b.access && a.recursive === b.recursive;
}

const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
const fmtGrant = (g: Grant) => `${g.path} (${g.access}, ${g.recursive ? "recursive" : "exact"})`;

/** Every path/access the inner grant authorises is authorised by the outer one. */
export function grantCovers(outer: Grant, inner: Grant): boolean {
  if (inner.access === "write" && outer.access !== "write") return false;
  const o = norm(outer.path);
  const i = norm(inner.path);
  if (i.split("/").includes("..")) return false;
  if (!outer.recursive) return !inner.recursive && i === o;
  return i === o || i.startsWith(o === "/" ? "/" : o + "/");
}

function profileCovers(
  o: { network: boolean; fileSystem: Grant[] },
  n: { network: boolean; fileSystem: Grant[] },
): boolean {
  return (!n.network || o.network) && n.fileSystem.every((g) => o.fileSystem.some((og) => grantCovers(og, g)));
}

function profileNarrower(
  o?: { network: boolean; fileSystem: Grant[] },
  n?: { network: boolean; fileSystem: Grant[] },
): NarrowProof {
  if (!o || !n) return no("profile missing");
  if (n.network && !o.network) return no("the new profile turns the network on");
  for (const g of n.fileSystem)
    if (!o.fileSystem.some((og) => grantCovers(og, g))) return no(`${fmtGrant(g)} is not covered by the old profile`);
  const same =
    n.network === o.network &&
    n.fileSystem.length === o.fileSystem.length &&
    n.fileSystem.every((g) => o.fileSystem.some((og) => sameGrant(og, g)));
  return same ? no("the new profile is identical") : YES;
}
