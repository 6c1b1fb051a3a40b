import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "@/test/support/cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-audit-verb-"));
const file = path.join(dir, "permission-log.el");
fs.writeFileSync(file, '(:event permission-decision :tool "Bash" :outcome allow)\n');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cockpit audit import --agent", () => {
  it("refuses an agent that keeps no permission log, naming the ones that do (exit 2, before any request)", async () => {
    const r = await runCli("audit", "import", file, "--workspace", dir, "--agent", "claude-code");
    expect(r.code).toBe(2);
    expect(r.err).toContain("Claude Code has no permission log (use mevedel)");
    const unknown = await runCli("audit", "import", file, "--workspace", dir, "--agent", "nobody");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown agent "nobody" (use mevedel)');
  });

  it("names each agent's log in its help", async () => {
    const r = await runCli("audit", "--help");
    expect(r.out + r.err).toContain("mevedel's permission-log.el");
    expect(r.out + r.err).toContain("--agent mevedel");
  });
});
