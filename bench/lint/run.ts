// Rule-hygiene lint time for a workspace with 5,000 rules across every store of the three agents.
// Writes a temp workspace and HOME, then times loading + linting (p50/p90 of several runs).
// Run: npx tsx bench/lint/run.ts [RULES=5000] [RUNS=7]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { lintWorkspace, summarize } from "../../lib/hygiene/index";
import { loadLintItems } from "../../lib/stores/load-lint-items";

const TOTAL = Number(process.argv[2] ?? 5000);
const RUNS = Number(process.argv[3] ?? 7);
const BASES = ["git", "npm run", "make", "cargo", "docker compose", "kubectl", "go", "pnpm", "terraform", "gh"];
const SUBS = ["status", "build", "test", "lint", "log", "deploy", "up", "fmt", "check", "apply"];

// Realistic clutter: prefixes, their sub-commands (covered), copies (duplicate), exact one-offs, carve-outs.
function shellRule(i: number, dialect: "Bash" | "Shell"): [string, "allow" | "ask" | "deny"] {
  const base = BASES[i % BASES.length];
  const sub = SUBS[Math.floor(i / BASES.length) % SUBS.length];
  switch (i % 9) {
    case 0:
      return [`${dialect}(${base}:*)`, "allow"];
    case 1:
    case 2:
      return [`${dialect}(${base} ${sub}:*)`, "allow"];
    case 3:
      return [`${dialect}(${base} ${sub} --target=t${i})`, "allow"];
    case 4:
      return [`${dialect}(${base} ${sub} push${i}:*)`, "deny"];
    case 5:
      return [`Edit(src/mod${i % 300}/**)`, "allow"];
    case 6:
      return [`Edit(src/mod${i % 300}/file${i}.ts)`, "allow"];
    case 7:
      return [`mcp__server${i % 50}__get_${i}`, "allow"];
    default:
      return [`${dialect}(tool${i} ${sub}:*)`, i % 2 ? "ask" : "allow"];
  }
}

function jsonFile(rules: [string, string][]): string {
  const lists: Record<string, string[]> = { allow: [], ask: [], deny: [] };
  for (const [t, a] of rules) lists[a].push(t);
  return JSON.stringify({ permissions: lists }, null, 2) + "\n";
}

function plistFile(rules: [string, string][]): string {
  const items = rules.map(([p, a]) => `  ("Bash" :pattern "${p}" :action ${a})`);
  return `(:rules\n (\n${items.join("\n")}\n ))\n`;
}

function makeWorkspace(): { root: string; workspace: string; home: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "bench-lint-"));
  const workspace = path.join(root, "ws");
  const home = path.join(root, "home");
  const files: [string, "Bash" | "Shell" | "plist"][] = [
    [path.join(workspace, ".claude/settings.json"), "Bash"],
    [path.join(workspace, ".claude/settings.local.json"), "Bash"],
    [path.join(home, ".claude/settings.json"), "Bash"],
    [path.join(workspace, ".commandcode/settings.json"), "Shell"],
    [path.join(workspace, ".commandcode/settings.local.json"), "Shell"],
    [path.join(home, ".commandcode/settings.json"), "Shell"],
    [path.join(workspace, ".mevedel/permissions.el"), "plist"],
    [path.join(home, ".mevedel/permissions.el"), "plist"],
  ];
  const per = Math.ceil(TOTAL / files.length);
  let n = 0;
  files.forEach(([file, dialect], f) => {
    mkdirSync(path.dirname(file), { recursive: true });
    const count = Math.min(per, TOTAL - n);
    // Overlapping index ranges between files give cross-file duplicates and covers.
    const rules: [string, string][] = [];
    for (let k = 0; k < count; k++) {
      const i = k + (f % 3) * Math.floor(per / 2);
      if (dialect === "plist") {
        const base = BASES[i % BASES.length];
        const sub = SUBS[Math.floor(i / BASES.length) % SUBS.length];
        rules.push(
          i % 4 === 0
            ? [`${base} *`, "allow"]
            : i % 4 === 3
              ? [`${base} ${sub} x${i}*`, "deny"]
              : [`${base} ${sub} *`, "allow"],
        );
      } else rules.push(shellRule(i, dialect));
    }
    writeFileSync(file, dialect === "plist" ? plistFile(rules) : jsonFile(rules));
    n += count;
  });
  return { root, workspace, home };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main() {
  const ws = makeWorkspace();
  const paths = { workspace: ws.workspace, home: ws.home, managedSettingsPath: null };
  const total: number[] = [];
  const lintOnly: number[] = [];
  let summary = "";
  try {
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      const { items } = await loadLintItems(paths);
      const t1 = performance.now();
      const { findings } = lintWorkspace({ workspace: ws.workspace, home: ws.home, items });
      const t2 = performance.now();
      total.push(t2 - t0);
      lintOnly.push(t2 - t1);
      summary = summarize(items.length, findings).text;
    }
  } finally {
    rmSync(ws.root, { recursive: true, force: true });
  }
  console.log(summary);
  console.log(`load + lint: p50 ${pct(total, 50).toFixed(0)} ms, p90 ${pct(total, 90).toFixed(0)} ms (${RUNS} runs)`);
  console.log(`lint only:   p50 ${pct(lintOnly, 50).toFixed(0)} ms, p90 ${pct(lintOnly, 90).toFixed(0)} ms`);
}

void main();
