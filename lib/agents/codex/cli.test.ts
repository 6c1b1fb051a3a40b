/**
 * Codex's loudest state in the terminal: one rules file that fails to load and Codex ignores every rule it has,
 * forbidden ones in the other files included (`execpolicy` `load_exec_policy` returns an error and
 * `core/src/exec_policy.rs` falls back to an empty policy). `cockpit entries` says so first, `cockpit lint` as an
 * error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli as cli } from "@/test/support/cli";

let root: string;
let ws: string;
let home: string;
const saved = { HOME: process.env.HOME, MANAGED: process.env.COCKPIT_MANAGED_SETTINGS };

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "codex-cli-"));
  ws = path.join(root, "project");
  home = path.join(root, "home");
  mkdirSync(ws);
  mkdirSync(path.join(home, ".codex", "rules"), { recursive: true });
  process.env.HOME = home;
  process.env.COCKPIT_MANAGED_SETTINGS = path.join(root, "no-managed.json");
});
afterEach(() => {
  process.env.HOME = saved.HOME;
  if (saved.MANAGED === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = saved.MANAGED;
  rmSync(root, { recursive: true, force: true });
});

const team = () => path.join(home, ".codex", "rules", "team.rules");
const broken = () => path.join(home, ".codex", "rules", "zz-broken.rules");
const BANNER = () =>
  `Codex is ignoring all your rules because of ${broken()}, line 3: match example \`hg\` did not match the rule. Until it is fixed, every rule in every Codex rules file is ignored, forbidden ones included.`;

function writeRules() {
  writeFileSync(team(), '# team rules\nprefix_rule(pattern=["rm", "-rf"], decision="forbidden")\n');
  // A `match` example that fails: Codex refuses the whole policy (execpolicy/tests/basic.rs, match examples).
  writeFileSync(
    broken(),
    '# mine\nprefix_rule(pattern=["ls"])\nprefix_rule(pattern=["git"], decision="allow", match=["hg"])\n',
  );
}

describe("Codex ignoring every rule, in the terminal", () => {
  it("cockpit entries starts with it (not when listing another agent)", async () => {
    writeRules();
    const human = await cli("entries", "--workspace", ws);
    expect(human.code).toBe(0);
    expect(human.out.split("\n")[0]).toBe(`!! ${BANNER()}`);
    expect((await cli("entries", "--workspace", ws, "--agent", "codex")).out.split("\n")[0]).toBe(`!! ${BANNER()}`);
    expect((await cli("entries", "--workspace", ws, "--agent", "claude-code")).out).not.toContain("!!");

    const json = await cli("entries", "--workspace", ws, "--json", "--stores");
    expect(JSON.parse(json.out).banners).toEqual([BANNER()]);
    expect(json.err).toContain(`cockpit entries: ${BANNER()}`);
  });

  it("says nothing when every file loads", async () => {
    writeFileSync(team(), 'prefix_rule(pattern=["rm", "-rf"], decision="forbidden")\n');
    const human = await cli("entries", "--workspace", ws);
    expect(human.out).not.toContain("!!");
    const json = await cli("entries", "--workspace", ws, "--json", "--stores");
    expect(JSON.parse(json.out).banners).toBeUndefined();
    expect(json.err).toBe("");
  });

  it("cockpit lint reports the broken file as an error (exit 1 at the default threshold)", async () => {
    writeRules();
    const lint = await cli("lint", "--workspace", ws, "--json");
    const findings = JSON.parse(lint.out).findings as { severity: string; message: string }[];
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ severity: "error", message: expect.stringContaining("ignoring all your rules") }),
      ]),
    );
    expect(lint.code).toBe(1);
  });
});
