import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadShellParser } from "../../agents/shared/shell-parser";
import type { ShellParser } from "./analyze";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});
afterEach(() => vi.restoreAllMocks());

describe("a cancelled parse leaves no state behind", () => {
  it("the next command is parsed from scratch, not resumed from the cancelled one", () => {
    shell.clearCache();
    const long = Array.from(
      { length: 40 },
      (_, i) => `npm run build:part-${i} -- --out=/srv/releases/x/part-${i}`,
    ).join("\n");
    // Under load the parse budget runs out: make the clock jump so the long parse is cancelled.
    let t = 0;
    const now = vi.spyOn(performance, "now").mockImplementation(() => (t += 1000));
    shell.analyze(long);
    now.mockRestore();
    const a = shell.analyze("cat ~/.ssh/id_ed25519_marker");
    expect(a.parts.map((p) => p.text)).toEqual(["cat ~/.ssh/id_ed25519_marker"]);
    expect(a.secretArgs.length).toBeGreaterThan(0);
  });
});
