import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(path.join(os.tmpdir(), "connect-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cockpit = (args: string[]) => {
  const r = spawnSync(process.execPath, ["bin/cockpit.mjs", ...args], {
    env: { PATH: process.env.PATH, HOME: root, COCKPIT_DATA: path.join(root, "data") } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

// Each check starts the real command (a process each; from the sources through tsx while a checkout is being
// edited): seconds apiece on a loaded machine, so the tests get minutes, not the default 30 s.
describe("cockpit connect / disconnect claude-code", { timeout: 180_000 }, () => {
  it("adds the hook, is idempotent, and disconnect restores the file", () => {
    const ws = path.join(root, "ws");
    mkdirSync(path.join(ws, ".claude"), { recursive: true });
    const original = '{\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  }\n}\n';
    writeFileSync(path.join(ws, ".claude/settings.local.json"), original);
    const first = cockpit(["connect", "claude-code", "--workspace", ws, "--url", "http://127.0.0.1:4000"]);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain("export COCKPIT_TOKEN=");
    const settings = JSON.parse(readFileSync(path.join(ws, ".claude/settings.local.json"), "utf8"));
    expect(settings.hooks.PermissionRequest[0].hooks[0].command).toMatch(
      /^COCKPIT_URL=http:\/\/127\.0\.0\.1:4000 node ".*\/bin\/cockpit\.mjs" hook claude-code$/,
    );
    expect(cockpit(["connect", "claude-code", "--workspace", ws, "--url", "http://127.0.0.1:4000"]).stdout).toContain(
      "nothing changed",
    );
    expect(cockpit(["disconnect", "claude-code", "--workspace", ws]).code).toBe(0);
    expect(readFileSync(path.join(ws, ".claude/settings.local.json"), "utf8")).toBe(original);
    expect(cockpit(["disconnect", "claude-code", "--workspace", ws]).stdout).toContain("nothing changed");
  });

  it("exits 2 on bad flags or an unknown agent, 1 on a refusal", () => {
    expect(cockpit(["connect", "claude-code"]).code).toBe(2);
    expect(cockpit(["connect", "no-such-agent", "--workspace", root]).code).toBe(2);
    expect(cockpit(["connect", "claude-code", "--workspace", root, "--bogus"]).code).toBe(2);
    const both = cockpit(["connect", "claude-code", "--workspace", root, "--http", "--audit-http"]);
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining("name one of the two") });
    const missing = cockpit(["connect", "claude-code", "--workspace", path.join(root, "nope")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    const broken = path.join(root, "broken");
    mkdirSync(path.join(broken, ".claude"), { recursive: true });
    writeFileSync(path.join(broken, ".claude/settings.local.json"), "{ not json");
    expect(cockpit(["connect", "claude-code", "--workspace", broken, "--url", "http://x:1"]).code).toBe(1);
    expect(readFileSync(path.join(broken, ".claude/settings.local.json"), "utf8")).toBe("{ not json");
    expect(cockpit(["hook", "--help"]).code).toBe(0);
    expect(cockpit(["simulate", "--workspace", root]).code).toBe(2);
  });
});
