// mevedel decisions as its own ERT tests say (issue 20 §1): every row names the mevedel test file, its
// `mevedel-deftest` and the seed 004 line. `npx tsx bench/mevedel-agreement/run.ts` prints the agreement figure.
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../agents/shared/shell-parser";
import { decide } from "./decide";
import type { ShellParser } from "./types";
import { MEVEDEL_CASES } from "@/test/support/mevedel-cases";
import { caseContext } from "@/test/support/mevedel-case-context";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});

describe("mevedel agreement (cases from mevedel's ERT tests)", () => {
  it.each(
    MEVEDEL_CASES.map(
      (c) =>
        [`${c.file} ${c.deftest} — ${c.doc} [seed ${c.seed}] (${c.mode}) ${JSON.stringify(c.call.input)}`, c] as const,
    ),
  )("%s", (_name, c) => {
    const d = decide(c.call, caseContext(c, shell));
    expect(d.decision, d.reason).toBe(c.expect);
    if (c.reason) expect(d.reason).toMatch(c.reason);
  });
});
