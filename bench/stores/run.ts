// Reading large permission stores. Listing (the Rules page, `cockpit entries`): BENCH_N allow rules (default
// 5,000) in a Claude Code settings.json and in a mevedel permissions.el; reading a 10 MB plist (the s-expression
// reader). Each BENCH_RUNS times (default 9); prints the median and worst in ms. The unit tests read the same
// inputs for correctness only, untimed. Run: npx tsx bench/stores/run.ts      Env: BENCH_N, BENCH_RUNS.
import { readSexps } from "@/lib/sexp/read";
import { listEntries } from "@/lib/stores/list-entries";
import { makeSandbox } from "@/test/support/stores";

const N = Number(process.env.BENCH_N ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const formats = {
  "claude-code (JSON)": {
    agent: "claude-code" as const,
    file: ".claude/settings.json",
    text: () => {
      const rules = Array.from({ length: N }, (_, i) => `    "Bash(tool-${i}:*)"`).join(",\n");
      return `{\n  "permissions": {\n    "allow": [\n${rules}\n    ]\n  }\n}\n`;
    },
  },
  "mevedel (plist)": {
    agent: "mevedel" as const,
    file: ".mevedel/permissions.el",
    text: () => {
      const rules = Array.from({ length: N }, (_, i) => `  ("Bash" :pattern "tool-${i} *" :action allow)`).join("\n");
      return `(:rules\n (\n${rules})\n :resource-grants nil)\n`;
    },
  },
};

function report(name: string, times: number[]) {
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  process.stdout.write(`${name.padEnd(24)} median ${median.toFixed(1)} ms   worst ${times.at(-1)!.toFixed(1)} ms\n`);
}

async function main() {
  process.stdout.write(`listing ${N.toLocaleString("en")} entries, ${RUNS} runs each\n`);
  for (const [name, f] of Object.entries(formats)) {
    const sb = makeSandbox("bench-list-");
    try {
      sb.write(f.file, f.text());
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const { entries } = await listEntries({ ...sb.paths, agent: f.agent });
        times.push(performance.now() - t0);
        if (entries.length !== N) throw new Error(`${name}: listed ${entries.length}, expected ${N}`);
      }
      report(name, times);
    } finally {
      sb.cleanup();
    }
  }
  const item = '("Bash" :pattern "git log*" :action allow)\n';
  const count = Math.ceil(10_000_000 / item.length);
  const big = `(:rules (${item.repeat(count)}) :resource-grants nil)`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const { data } = readSexps(big);
    times.push(performance.now() - t0);
    if (data.length !== 1) throw new Error("the 10 MB plist read as more than one datum");
  }
  report("readSexps, 10 MB plist", times);
}

await main();
