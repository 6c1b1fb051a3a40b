import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import type { Entry } from "@/lib/stores/types";
import { runCli as cli } from "@/test/support/cli";

let sb: Sandbox;
const saved = { HOME: process.env.HOME, MANAGED: process.env.COCKPIT_MANAGED_SETTINGS };
beforeEach(() => {
  sb = makeSandbox("lint-cli-");
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = path.join(sb.root, "no-managed.json");
});
afterEach(() => {
  process.env.HOME = saved.HOME;
  if (saved.MANAGED === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = saved.MANAGED;
  sb.cleanup();
});

const settings = (lists: Record<string, string[]>) => JSON.stringify({ permissions: lists }, null, 2) + "\n";

describe("cockpit lint", () => {
  beforeEach(() => {
    sb.write(".claude/settings.json", settings({ allow: ["Bash(git:*)", "Bash(npm run test:*)"] }));
    sb.write(".claude/settings.local.json", settings({ allow: ["Bash(git status:*)", "Bash(npm run test:*)"] }));
    sb.write("~/.claude/settings.json", settings({ ask: ["Bash(npm run:*)"] }));
    sb.write(".commandcode/settings.json", settings({ allow: ["Shell(run_in_background:true)"] }));
    sb.write(
      ".mevedel/permissions.el",
      '(:rules (("Bash" :pattern "git log*" :action allow) ("Bash" :pattern "git log*" :action allow)))\n',
    );
  });

  it("prints the JSON contract with the ids of `cockpit entries`", async () => {
    const r = await cli("lint", "--workspace", sb.workspace, "--json");
    expect(r.code).toBe(0); // nothing reaches "error"
    const parsed = JSON.parse(r.out) as { findings: Record<string, unknown>[] };
    expect(Object.keys(parsed)).toEqual(["findings"]);
    for (const f of parsed.findings) {
      expect(Object.keys(f).filter((k) => !["kind", "severity", "entry", "by", "message"].includes(k))).toEqual([]);
      expect(typeof f.message).toBe("string");
    }
    const entries = JSON.parse((await cli("entries", "--workspace", sb.workspace, "--json")).out) as Entry[];
    const id = (file: string, rule: string) => entries.find((e) => e.store.path.endsWith(file) && e.rule === rule)!.id;
    const has = (kind: string, entry: string, by?: string) =>
      parsed.findings.some((f) => f.kind === kind && f.entry === entry && (by === undefined || f.by === by));
    expect(
      has("covered", id("settings.local.json", "Bash(git status:*)"), id(".claude/settings.json", "Bash(git:*)")),
    ).toBe(true);
    expect(
      has(
        "duplicate",
        id("settings.local.json", "Bash(npm run test:*)"),
        id(".claude/settings.json", "Bash(npm run test:*)"),
      ),
    ).toBe(true);
    expect(
      has(
        "shadowed",
        id(".claude/settings.json", "Bash(npm run test:*)"),
        id("/home/.claude/settings.json", "Bash(npm run:*)"),
      ),
    ).toBe(true);
    expect(has("ineffective", id(".commandcode/settings.json", "Shell(run_in_background:true)"))).toBe(true);
    expect(parsed.findings.some((f) => f.kind === "duplicate" && String(f.message).includes("twice"))).toBe(true);
    expect(r.err).toMatch(/no usage data yet/i);
  });

  it("--fail-on: exit 1 when a finding reaches the threshold", async () => {
    expect((await cli("lint", "--workspace", sb.workspace, "--json", "--fail-on", "warning")).code).toBe(1);
    expect((await cli("lint", "--workspace", sb.workspace, "--fail-on", "error")).code).toBe(0);
    sb.write("~/.claude/settings.json", settings({ allow: ["Bash(python:*)"] }));
    const r = await cli("lint", "--workspace", sb.workspace);
    expect(r.code).toBe(1);
    expect(r.out).toContain("OVER-BROAD (1, error)");
    expect(r.out).toContain("arbitrary code");
  });

  it("human output is grouped by kind, with a summary and the honest usage note", async () => {
    const r = await cli("lint", "--workspace", sb.workspace);
    expect(r.out).toMatch(/^SHADOWED \(1, warning\)$/m);
    expect(r.out).toMatch(/^COVERED \(1, info\)$/m);
    expect(r.out).toMatch(/^\d+ entries: .*1 covered/m);
    expect(r.out).toMatch(/note: No usage data yet/);
  });

  it("bad flags exit 2", async () => {
    expect((await cli("lint", "--workspace", sb.workspace, "--fail-on", "info")).code).toBe(2);
  });
});
