import { canonicalRuleTool } from "./tools";
import { displayTool, lispString, parseRule } from "./rule-parse";
import { readSexp, type Sexp } from "./sexp";
import {
  ACTIONS,
  type Action,
  type Grant,
  type MevedelRuleData,
  type ParseResult,
  type Rule,
  type RuleSource,
  type Dialect,
  type Specifier,
} from "./types";

const RULE_ACTIONS: ReadonlySet<string> = new Set(ACTIONS);
const SPEC_KEYS = ["path", "pattern", "expression", "domain", "name"] as const;

/** Build a canonical rule from plist rule data (mevedel): one specifier per rule; `:expression` is literal. */
export function parseMevedelRule(data: MevedelRuleData, source: RuleSource, dialect: Dialect): ParseResult<Rule> {
  if (!data || typeof data.tool !== "string" || !data.tool.trim())
    return { ok: false, error: "rule needs a tool name" };
  if (!RULE_ACTIONS.has(data.action)) return { ok: false, error: `invalid :action ${String(data.action)}` };
  const present = SPEC_KEYS.filter((k) => data[k] !== undefined);
  if (present.length > 1) return { ok: false, error: `one specifier per rule (got :${present.join(", :")})` };
  let specifier: Specifier | null = null;
  const key = present[0];
  if (key) {
    const v = data[key];
    if (typeof v !== "string" || v === "") return { ok: false, error: `:${key} must be a non-empty string` };
    specifier =
      key === "pattern"
        ? { kind: "shell", pattern: v, dialect: "glob" }
        : key === "expression"
          ? { kind: "expression", value: v }
          : key === "path"
            ? { kind: "path", pattern: v }
            : key === "domain"
              ? { kind: "domain", pattern: v.toLowerCase() }
              : { kind: "name", pattern: v };
  }
  const tool = canonicalRuleTool(data.tool);
  const hasProfile = data.network !== undefined || data.fileSystem !== undefined;
  // mevedel builds qualified deny/ask rules too (`("Bash" :network t :action deny)`); ordinary resolution reads them
  // as plain rules of their tool, so only the tool is checked here.
  if (hasProfile && !["Shell", "Eval"].includes(tool)) {
    return { ok: false, error: ":network/:file-system profiles belong on Bash or Eval rules" };
  }
  if (data.sandboxPermissions !== undefined) {
    if (!/^[a-z][a-z-]*$/.test(data.sandboxPermissions))
      return { ok: false, error: `invalid :sandbox-permissions ${data.sandboxPermissions}` };
    if (!["Shell", "Eval"].includes(tool))
      return { ok: false, error: ":sandbox-permissions belongs on Bash or Eval rules" };
  }
  for (const g of data.fileSystem ?? []) {
    const bad = checkGrant(g);
    if (bad) return { ok: false, error: `:file-system entry: ${bad}` };
  }
  const rule: Rule = { action: data.action, tool, specifier, text: formatMevedelData(data), source, agent: dialect.id };
  if (hasProfile) rule.profile = { network: data.network === true, fileSystem: data.fileSystem ?? [] };
  if (data.sandboxPermissions !== undefined) rule.sandboxPermissions = data.sandboxPermissions;
  return { ok: true, value: rule };
}

function checkGrant(g: Grant): string | null {
  if (!g || typeof g.path !== "string" || !g.path) return "grant needs :path";
  if (!(g.path.startsWith("/") || g.path.startsWith("~/") || g.path === "~"))
    return `grant path "${g.path}" must be absolute or ~/…`;
  if (g.access !== "read" && g.access !== "write") return `grant :access must be read or write`;
  return null;
}

/** Plist text for rule data, as mevedel writes it. */
export function formatMevedelData(d: MevedelRuleData): string {
  const parts = [lispString(d.tool)];
  for (const k of SPEC_KEYS) if (d[k] !== undefined) parts.push(`:${k}`, lispString(String(d[k])));
  if (d.network !== undefined) parts.push(":network", d.network ? "t" : "nil");
  if (d.fileSystem) parts.push(":file-system", `(${d.fileSystem.map(formatGrant).join(" ")})`);
  if (d.sandboxPermissions) parts.push(":sandbox-permissions", d.sandboxPermissions);
  parts.push(":action", d.action);
  return `(${parts.join(" ")})`;
}

/** `(:path P :access read|write [:recursive t])`. */
export function formatGrant(g: Grant): string {
  return `(:path ${lispString(g.path)} :access ${g.access}${g.recursive ? " :recursive t" : ""})`;
}

/** Plist text for a canonical rule with its action. */
export function formatMevedelRule(
  rule: Pick<Rule, "tool" | "specifier" | "action" | "profile" | "sandboxPermissions">,
  dialect: Dialect,
): string {
  const s = rule.specifier;
  const d: MevedelRuleData = { tool: displayTool(rule.tool, dialect), action: rule.action };
  if (s?.kind === "shell") d.pattern = s.pattern;
  else if (s?.kind === "path") d.path = s.pattern;
  else if (s?.kind === "domain") d.domain = s.pattern;
  else if (s?.kind === "name") d.name = s.pattern;
  else if (s?.kind === "expression") d.expression = s.value;
  if (rule.profile) {
    d.network = rule.profile.network;
    d.fileSystem = rule.profile.fileSystem;
  }
  if (rule.sandboxPermissions) d.sandboxPermissions = rule.sandboxPermissions;
  return formatMevedelData(d);
}

function plist(items: Sexp[]): ParseResult<Map<string, Sexp>> {
  const map = new Map<string, Sexp>();
  for (let i = 0; i < items.length; i += 2) {
    const k = items[i];
    if (k.t !== "sym" || !k.v.startsWith(":"))
      return { ok: false, error: `expected a :keyword, got ${k.t === "list" ? "a list" : k.v}` };
    if (i + 1 >= items.length) return { ok: false, error: `${k.v} has no value` };
    map.set(k.v.slice(1), items[i + 1]);
  }
  return { ok: true, value: map };
}

const str = (s: Sexp | undefined) => (s?.t === "str" ? s.v : s?.t === "sym" ? s.v : undefined);
const truthy = (s: Sexp | undefined) =>
  s !== undefined && !(s.t === "sym" && s.v === "nil") && !(s.t === "list" && s.items.length === 0);

/** Parse a grant form `(:path P :access read|write :recursive t)`; `~/` is expanded with `home` when given. */
export function parseMevedelGrant(text: string | Sexp, home?: string): ParseResult<Grant> {
  const form = typeof text === "string" ? readSexp(text) : { ok: true as const, value: text, rest: "" };
  if (!form.ok) return { ok: false, error: form.error };
  if (form.value.t !== "list") return { ok: false, error: "a grant is a list" };
  const p = plist(form.value.items);
  if (!p.ok) return p;
  const path = str(p.value.get("path"));
  const access = str(p.value.get("access"));
  const g: Grant = { path: path ?? "", access: access as Grant["access"], recursive: truthy(p.value.get("recursive")) };
  const bad = checkGrant(g);
  if (bad) return { ok: false, error: bad };
  if (home && (g.path === "~" || g.path.startsWith("~/"))) g.path = home.replace(/\/+$/, "") + g.path.slice(1);
  return { ok: true, value: g };
}

/** Parse a rule form `("Bash" :pattern "git log*" :action allow)` as written in a mevedel store. */
export function parseMevedelRuleText(text: string, source: RuleSource, dialect: Dialect): ParseResult<Rule> {
  const form = readSexp(text);
  if (!form.ok) return { ok: false, error: form.error };
  if (form.rest.trim()) return { ok: false, error: "trailing text after the rule" };
  const v = form.value;
  if (v.t !== "list" || v.items.length === 0 || v.items[0].t !== "str")
    return { ok: false, error: 'a rule is ("Tool" :key value … :action allow|ask|deny)' };
  const p = plist(v.items.slice(1));
  if (!p.ok) return p;
  const data: MevedelRuleData = { tool: v.items[0].v, action: str(p.value.get("action")) as Action };
  for (const k of SPEC_KEYS) {
    const val = p.value.get(k);
    if (val !== undefined) {
      if (val.t !== "str") return { ok: false, error: `:${k} must be a string` };
      data[k] = val.v;
    }
  }
  if (p.value.has("network")) data.network = truthy(p.value.get("network"));
  const level = p.value.get("sandbox-permissions");
  if (level !== undefined) {
    if (level.t !== "sym" || level.v === "nil" || level.v === "t")
      return { ok: false, error: ":sandbox-permissions must be a level such as require-escalated" };
    data.sandboxPermissions = level.v;
  }
  const fs = p.value.get("file-system");
  if (fs !== undefined) {
    if (fs.t === "sym" && fs.v === "nil") data.fileSystem = [];
    else if (fs.t !== "list") return { ok: false, error: ":file-system must be a list of grants" };
    else {
      data.fileSystem = [];
      for (const item of fs.items) {
        const g = parseMevedelGrant(item);
        if (!g.ok) return { ok: false, error: `:file-system entry: ${g.error}` };
        data.fileSystem.push(g.value);
      }
    }
  }
  const known = new Set(["action", "network", "file-system", "sandbox-permissions", ...SPEC_KEYS]);
  for (const k of p.value.keys()) if (!known.has(k)) return { ok: false, error: `unknown key :${k}` };
  const r = parseMevedelRule(data, source, dialect);
  if (r.ok) r.value.text = text.trim();
  return r;
}

/** Rule text in the dialect's form: a plist rule form, or `Tool(specifier)`. Never throws. */
export function parseRuleText(
  text: string,
  action: Action,
  opts: { dialect: Dialect; source: RuleSource },
): ParseResult<Rule> {
  return opts.dialect.rules.form === "plist"
    ? parseMevedelRuleText(text, opts.source, opts.dialect)
    : parseRule(text, action, opts);
}
