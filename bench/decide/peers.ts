// Side by side with peer engines, in one run: our decide() vs Cedar (@cedar-policy/cedar-wasm, nodejs entry)
// vs node-casbin on an equivalent rule set: 1,000 prefix/glob command rules and 1,000 path rules.
// Every engine must give the same allow / not-allow answer on every sample call (checked before timing).
// Run: npx tsx bench/decide/run.ts (after the rule-count table) or npx tsx bench/decide/run.ts --peers
import { dialectOf } from "../../lib/agents/dialects";
import * as cedar from "@cedar-policy/cedar-wasm/nodejs";
import { createRequire } from "node:module";
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
import {
  decide,
  parseRule,
  type PolicyContext,
  type Rule,
  type ShellParser,
  type ToolCall,
} from "../../lib/policy/index";

// BENCH_PEER_RULES=n sizes both sets (default 1,000 each, the figure).
const N_COMMAND = Number(process.env.BENCH_PEER_RULES ?? 1_000);
const N_PATH = N_COMMAND;
const SOURCE = { scope: "workspace" as const, store: "/w/.commandcode/settings.json" };

/** One rule in a neutral form; each engine gets it in its own dialect. */
interface Spec {
  kind: "command" | "path";
  effect: "allow" | "deny";
  /** Ours: the Shell(...) / Edit(...) specifier. */
  ours: string;
  /** Cedar `like` pattern (`*` spans anything, `/` included). */
  like: string;
  /** casbin pattern: keyMatch (prefix up to `*`) for commands, globMatch (minimatch) for paths. */
  casbin: string;
}

function specs(): Spec[] {
  const out: Spec[] = [];
  for (let i = 0; i < N_COMMAND; i++) {
    // Half prefix allow rules with a word boundary, half glob-suffix deny rules.
    if (i % 2 === 0)
      out.push({
        kind: "command",
        effect: "allow",
        ours: `npm run task${i}:*`,
        like: `npm run task${i} *`,
        casbin: `npm run task${i} *`,
      });
    else
      out.push({
        kind: "command",
        effect: "deny",
        ours: `git push --force${i}*`,
        like: `git push --force${i}*`,
        casbin: `git push --force${i}*`,
      });
  }
  for (let i = 0; i < N_PATH; i++) {
    const t = i % 3;
    if (t === 0)
      out.push({
        kind: "path",
        effect: "allow",
        ours: `src/mod${i}/**`,
        like: `src/mod${i}/*`,
        casbin: `src/mod${i}/**`,
      });
    else if (t === 1)
      out.push({ kind: "path", effect: "deny", ours: `vendor${i}/**`, like: `vendor${i}/*`, casbin: `vendor${i}/**` });
    // Cedar's `*` crosses `/`, so `gen5/*.ts` also matches gen5/a/b.ts there; the sample calls avoid that case.
    else
      out.push({ kind: "path", effect: "allow", ours: `gen${i}/*.ts`, like: `gen${i}/*.ts`, casbin: `gen${i}/*.ts` });
  }
  return out;
}

interface Sample {
  kind: "command" | "path";
  value: string;
  /** Expected: allowed or not (deny, or no rule: ours asks, the peers default-deny). */
  allowed: boolean;
}

// The sample calls hit rules near the end of each set (a linear scan pays for the whole set) and miss all rules.
const last = (n: number, step: number, rem: number) => n - 1 - ((n - 1 - rem + step) % step);
const SAMPLES: Sample[] = [
  { kind: "command", value: `npm run task${last(N_COMMAND, 2, 0)} --watch=false`, allowed: true },
  { kind: "command", value: "npm run task0 build", allowed: true },
  { kind: "command", value: `git push --force${last(N_COMMAND, 2, 1)} origin main`, allowed: false },
  { kind: "command", value: `npm run task${N_COMMAND} build`, allowed: false },
  { kind: "path", value: `src/mod${last(N_PATH, 3, 0)}/a.ts`, allowed: true },
  { kind: "path", value: `vendor${last(N_PATH, 3, 1)}/x.js`, allowed: false },
  { kind: "path", value: `gen${last(N_PATH, 3, 2)}/out.ts`, allowed: true },
  { kind: "path", value: "lib/x/b.ts", allowed: false },
];

// Cedar strings: `like` treats `*` as the wildcard; a literal `*` would be `\*` (none here). Quote `"` and `\`.
const cedarString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

function cedarEngine(rules: Spec[]) {
  const text = rules
    .map((r) => {
      const head = r.effect === "allow" ? "permit" : "forbid";
      const action = r.kind === "command" ? "shell" : "edit";
      const field = r.kind === "command" ? "command" : "path";
      return `${head}(principal, action == Action::"${action}", resource) when { context.${field} like ${cedarString(r.like)} };`;
    })
    .join("\n");
  const parsed = cedar.preparsePolicySet("bench", { staticPolicies: text });
  if (parsed.type !== "success") throw new Error(`cedar parse: ${JSON.stringify(parsed.errors[0])}`);
  return (s: Sample): boolean => {
    const answer = cedar.statefulIsAuthorized({
      principal: { type: "Agent", id: "a" },
      action: { type: "Action", id: s.kind === "command" ? "shell" : "edit" },
      resource: { type: "Target", id: "t" },
      context: s.kind === "command" ? { command: s.value } : { path: s.value },
      preparsedPolicySetId: "bench",
      entities: [],
    });
    if (answer.type !== "success") throw new Error(`cedar: ${JSON.stringify(answer.errors[0])}`);
    return answer.response.decision === "allow";
  };
}

const CASBIN_MODEL = `
[request_definition]
r = act, obj

[policy_definition]
p = act, obj, eft

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = r.act == p.act && ((r.act == "shell" && keyMatch(r.obj, p.obj)) || (r.act == "edit" && globMatch(r.obj, p.obj)))
`;

async function casbinEngine(rules: Spec[]) {
  const csv = rules.map((r) => `p, ${r.kind === "command" ? "shell" : "edit"}, ${r.casbin}, ${r.effect}`).join("\n");
  const e = await newEnforcer(newModelFromString(CASBIN_MODEL), new StringAdapter(csv));
  return (s: Sample): boolean => e.enforceSync(s.kind === "command" ? "shell" : "edit", s.value) as boolean;
}

function oursEngine(rules: Spec[], cold: boolean, shell: ShellParser) {
  const parsed: Rule[] = rules.map((r) => {
    const text = r.kind === "command" ? `Shell(${r.ours})` : `Edit(${r.ours})`;
    const p = parseRule(text, r.effect, { dialect: dialectOf("commandcode"), source: SOURCE });
    if (!p.ok) throw new Error(`ours: ${text}: ${JSON.stringify(p)}`);
    return p.value;
  });
  const ctx: PolicyContext = {
    dialect: dialectOf("commandcode"),
    mode: "default",
    workspaceRoot: "/w",
    home: "/home/u",
    tmpDirs: ["/tmp"],
    rules: parsed,
    shell,
  };
  const calls = new Map<Sample, ToolCall>();
  const callOf = (s: Sample): ToolCall => {
    let c = calls.get(s);
    if (!c) {
      c =
        s.kind === "command"
          ? { tool: "shell_command", input: { command: s.value } }
          : { tool: "edit_file", input: { file_path: s.value } };
      calls.set(s, c);
    }
    return c;
  };
  return (s: Sample): boolean => {
    if (cold && s.kind === "command") shell.clearCache();
    return decide(callOf(s), ctx).decision === "allow";
  };
}

/**
 * Interleaved timing: every engine runs a short batch in turn, round after round, so a busy machine slows
 * all engines alike instead of whichever happened to run during the busy spell.
 */
function measureInterleaved(engines: { fn: (s: Sample) => boolean; iterations: number }[], samples: Sample[]) {
  const ROUNDS = 20;
  const times = engines.map((e) => new Float64Array(e.iterations));
  for (const e of engines) for (let i = 0; i < Math.min(200, e.iterations / 10); i++) e.fn(samples[i % samples.length]);
  for (let round = 0; round < ROUNDS; round++)
    engines.forEach((e, k) => {
      const per = e.iterations / ROUNDS;
      for (let j = 0; j < per; j++) {
        const i = round * per + j;
        const s = samples[i % samples.length];
        const t0 = process.hrtime.bigint();
        e.fn(s);
        times[k][i] = Number(process.hrtime.bigint() - t0) / 1000;
      }
    });
  return times.map((t) => {
    t.sort();
    return { p50: t[Math.floor(t.length * 0.5)], p99: t[Math.floor(t.length * 0.99)] };
  });
}

function casbinVersion(): string {
  return createRequire(import.meta.url)("casbin/package.json").version as string;
}

export async function runPeers(shell: ShellParser): Promise<void> {
  const rules = specs();
  const engines: [string, (s: Sample) => boolean, number, "command" | "all"][] = [
    ["ours decide() (shell parse cached)", oursEngine(rules, false, shell), 10_000, "all"],
    ["ours decide() (shell parse cold)", oursEngine(rules, true, shell), 5_000, "command"],
    [`Cedar ${cedar.getCedarVersion()} (wasm, preparsed set)`, cedarEngine(rules), 1_000, "all"],
    [`node-casbin ${casbinVersion()} (keyMatch / globMatch)`, await casbinEngine(rules), 1_000, "all"],
  ];
  // Equivalence first: every engine answers every sample as expected.
  for (const [name, fn] of engines)
    for (const s of SAMPLES)
      if (fn(s) !== s.allowed) throw new Error(`${name} disagrees on ${s.kind} ${s.value}: expected ${s.allowed}`);

  const groups: [string, Sample[]][] = [
    ["command", SAMPLES.filter((s) => s.kind === "command")],
    ["path", SAMPLES.filter((s) => s.kind === "path")],
  ];
  const rows: string[][] = [];
  for (const [label, samples] of groups) {
    const picked = engines.filter(([, , , only]) => only === "all" || only === label);
    const timed = measureInterleaved(
      picked.map(([, fn, iterations]) => ({ fn, iterations })),
      samples,
    );
    const results = picked.map(([name], k) => ({ name, ...timed[k] }));
    const base = results[0];
    for (const r of results) {
      const ratio = (a: number, b: number) =>
        a / b >= 10 ? Math.round(a / b).toLocaleString("en-US") : (a / b).toFixed(2);
      const vs = `${ratio(r.p50, base.p50)} / ${ratio(r.p99, base.p99)}`;
      rows.push([label, r.name, r.p50.toFixed(2), r.p99.toFixed(2), vs]);
    }
  }
  const head = ["calls", "engine", "p50 µs", "p99 µs", "engine ÷ ours (cached), p50 / p99"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  console.log(`\npeers: ${N_COMMAND} command rules + ${N_PATH} path rules, ${SAMPLES.length} sample calls, all agree`);
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}
