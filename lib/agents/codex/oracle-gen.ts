/**
 * Seeded generator of rules files and argv for the differential test against the real Codex
 * (scripts/oracle-codex.ts). Case `index` of seed `seed` is always the same case, so a failure replays alone.
 */

export interface OracleCase {
  files: string[];
  argv: string[];
  resolveHostExecutables: boolean;
}

/** mulberry32 */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROGRAMS = ["git", "npm", "ls", "rm", "bash", "sh", "cargo", "python3", "curl"];
const PATHS = ["/usr/bin/git", "/opt/homebrew/bin/git", "/usr/bin/npm", "/bin/ls", "/usr/local/bin/curl", "/bin/rm"];
const RELATIVE = ["./git", "bin/npm", "~/bin/git", "../ls", "/usr/bin/../bin/git", "/usr//bin/git"];
const ARGS = [
  "push",
  "pull",
  "status",
  "-f",
  "--force",
  "install",
  "i",
  "-c",
  "-lc",
  "origin",
  "main",
  "x",
  "a b",
  'q"t',
  "",
];
const DECISIONS = [undefined, "allow", "prompt", "forbidden"];

export function generateOracleCase(seed: number, index: number): OracleCase {
  const r = rng(seed ^ Math.imul(index + 1, 0x9e3779b1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const tok = () => (r() < 0.85 ? pick(ARGS) : pick(PROGRAMS));
  const program = () => {
    const x = r();
    return x < 0.7 ? pick(PROGRAMS) : x < 0.9 ? pick(PATHS) : pick(RELATIVE);
  };
  const q = (s: string) => JSON.stringify(s);
  const alts = (gen: () => string) => {
    const n = 2 + Math.floor(r() * 2);
    const set = new Set<string>();
    while (set.size < n) set.add(gen());
    return `[${[...set].map(q).join(", ")}]`;
  };
  const patterns: string[][] = [];
  const fileCount = 1 + Math.floor(r() * 3);
  const files: string[] = [];
  for (let f = 0; f < fileCount; f++) {
    const lines: string[] = [];
    if (r() < 0.3) lines.push("# generated rules");
    const calls = 1 + Math.floor(r() * 6);
    for (let c = 0; c < calls; c++) {
      const kind = r();
      if (kind < 0.8) {
        const len = 1 + Math.floor(r() * 4);
        const parts: string[] = [];
        const literal: string[] = [];
        for (let i = 0; i < len; i++) {
          const gen = i === 0 ? () => (r() < 0.85 ? pick(PROGRAMS) : pick(PATHS)) : tok;
          if (r() < 0.3) {
            const a = alts(gen);
            parts.push(a);
            literal.push((JSON.parse(a) as string[])[0]!);
          } else {
            const t = gen();
            parts.push(q(t));
            literal.push(t);
          }
        }
        patterns.push(literal);
        const args = [`pattern = [${parts.join(", ")}]`];
        const d = pick(DECISIONS);
        if (d) args.push(`decision = ${q(d)}`);
        if (r() < 0.2) args.push(`justification = ${q(pick(["use the wrapper", "never on CI", "ok"]))}`);
        if (r() < 0.1)
          args.push(`match = [${q(literal.map((t) => (/[\s"]/.test(t) || t === "" ? `'${t}'` : t)).join(" "))}]`);
        if (r() < 0.05) args.push(`not_match = [[${[program(), tok()].map(q).join(", ")}]]`);
        lines.push(r() < 0.5 ? `prefix_rule(${args.join(", ")})` : `prefix_rule(\n    ${args.join(",\n    ")},\n)`);
      } else if (kind < 0.95) {
        const name = pick(["git", "npm", "ls", "curl", "rm"]);
        const paths = PATHS.filter((p) => p.endsWith(`/${name}`) && r() < 0.6);
        lines.push(`host_executable(name = ${q(name)}, paths = [${paths.map(q).join(", ")}])`);
      } else {
        lines.push(
          `network_rule(host = "api.github.com", protocol = "https", decision = ${q(pick(["allow", "deny", "prompt"]))})`,
        );
      }
    }
    files.push(lines.join("\n") + "\n");
  }
  let argv: string[];
  if (patterns.length && r() < 0.6) {
    // Start from a pattern so matches are common; then perturb.
    argv = pick(patterns).slice();
    if (r() < 0.3) argv[0] = pick([...PATHS, ...RELATIVE, argv[0]!]);
    if (r() < 0.3) argv.splice(Math.floor(r() * argv.length) + 1, 0, tok());
    if (r() < 0.2 && argv.length > 1) argv.pop();
    const extra = Math.floor(r() * 3);
    for (let i = 0; i < extra; i++) argv.push(tok());
  } else {
    argv = [program()];
    const n = Math.floor(r() * 4);
    for (let i = 0; i < n; i++) argv.push(tok());
  }
  return { files, argv, resolveHostExecutables: r() < 0.7 };
}
