// Agreement of the engine with mevedel on the cases of test/support/mevedel-cases.ts (by hand:
// `npx tsx bench/mevedel-agreement/run.ts [--misses]`). Prints "agree N/M (P%)", and the misses with --misses,
// marking those where the engine is more permissive than mevedel.
import { decide } from "@/lib/policy/decide";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import { MEVEDEL_CASES } from "@/test/support/mevedel-cases";
import { caseContext } from "@/test/support/mevedel-case-context";

const RANK = { deny: 0, ask: 1, allow: 2 } as const;

async function main() {
  const shell = await loadShellParser();
  let agree = 0;
  let permissive = 0;
  const misses: string[] = [];
  for (const c of MEVEDEL_CASES) {
    let got: "allow" | "ask" | "deny";
    try {
      got = decide(c.call, caseContext(c, shell)).decision;
    } catch (e) {
      misses.push(`ERROR ${c.deftest}: ${(e as Error).message}`);
      continue;
    }
    if (got === c.expect) agree++;
    else {
      const more = RANK[got] > RANK[c.expect];
      if (more) permissive++;
      misses.push(
        `${more ? "MORE PERMISSIVE " : ""}${c.deftest} — ${c.doc} (${c.mode}) ${JSON.stringify(c.call.input)}: mevedel ${c.expect}, engine ${got}`,
      );
    }
  }
  const n = MEVEDEL_CASES.length;
  console.log(`agree ${agree}/${n} (${((100 * agree) / n).toFixed(1)}%), ${permissive} more permissive than mevedel`);
  if (process.argv.includes("--misses")) for (const m of misses) console.log(`  ${m}`);
}

void main();
