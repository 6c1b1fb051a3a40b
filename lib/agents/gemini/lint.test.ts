/** Gemini hygiene over real policy files: Gemini's own semantics (priority order, first match decides). */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGemini } from "./agent-engine";
import { lintGemini } from "./lint";
import { geminiListing } from "./listing";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "gemini-lint-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function lint(files: Record<string, string>, settings?: object) {
  const dir = await mkdtemp(path.join(root, "t-"));
  const home = path.join(dir, "home");
  const ws = path.join(dir, "ws");
  for (const [rel, text] of Object.entries(files)) {
    const file = rel.startsWith("ws/") ? path.join(ws, rel.slice(3)) : path.join(home, ".gemini", "policies", rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  if (settings) await writeFile(path.join(home, ".gemini", "settings.json"), JSON.stringify(settings));
  const scope = { workspace: ws, home, etcDir: path.join(dir, "etc") };
  const { stores, versions } = await readGemini(scope);
  const listing = geminiListing({ stores, workspace: ws, home, versions });
  const findings = lintGemini(listing, stores);
  const rule = (id: string) => listing.entries.find((e) => e.id === id)?.rule ?? id;
  return findings.map((f) => ({ kind: f.kind, severity: f.severity, entry: rule(f.entry), by: f.by && rule(f.by) }));
}

const t = (tool: string, decision: string, priority: number, extra = "") =>
  `[[rule]]\ntoolName = "${tool}"\ndecision = "${decision}"\npriority = ${priority}\n${extra}\n`;

describe("gemini lint", () => {
  it("a higher-priority rule that matches every call first shadows (other decision) or covers (same decision)", async () => {
    const f = await lint({
      "a.toml":
        t("run_shell_command", "deny", 900) +
        t("run_shell_command", "allow", 100, 'commandPrefix = "git"') +
        t("web_fetch", "allow", 500) +
        t("web_fetch", "allow", 400),
    });
    expect(f).toEqual([
      // In the engine's order: highest priority first.
      {
        kind: "covered",
        severity: "info",
        entry: 'toolName = "web_fetch", decision = "allow", priority = 400',
        by: 'toolName = "web_fetch", decision = "allow", priority = 500',
      },
      {
        kind: "shadowed",
        severity: "warning",
        entry: 'toolName = "run_shell_command", commandPrefix = "git", decision = "allow", priority = 100',
        by: 'toolName = "run_shell_command", decision = "deny", priority = 900',
      },
    ]);
  });

  it("a narrower rule above a wider one, or one limited to other modes, is not shadowed", async () => {
    const f = await lint({
      "a.toml":
        t("run_shell_command", "allow", 900, 'commandPrefix = "git"') +
        t("run_shell_command", "deny", 100) +
        t("write_file", "deny", 800, 'modes = ["yolo"]') +
        t("write_file", "allow", 100),
    });
    expect(f).toEqual([]);
  });

  it("duplicates, a broken file (error), a workspace policy and a dropped regex are reported", async () => {
    const f = await lint({
      "a.toml": t("glob", "allow", 50) + t("glob", "allow", 50),
      "b.toml": "[[rule]\n",
      "c.toml": t("run_shell_command", "allow", 10, 'commandRegex = "(a+)+$"'),
      "ws/.gemini/policies/team.toml": t("read_file", "deny", 10),
    });
    expect(f.map((x) => [x.kind, x.severity, x.entry.split("/").pop()])).toEqual(
      expect.arrayContaining([
        ["ineffective", "error", "b.toml"],
        ["duplicate", "info", 'toolName = "glob", decision = "allow", priority = 50'],
        ["ineffective", "warning", 'toolName = "read_file", decision = "deny", priority = 10'],
        ["ineffective", "warning", expect.stringContaining("commandRegex")],
      ]),
    );
    expect(f).toHaveLength(4);
  });

  it("always-allow rules are ineffective while security.disableAlwaysAllow is set", async () => {
    const f = await lint({ "auto-saved.toml": t("glob", "allow", 950) }, { security: { disableAlwaysAllow: true } });
    expect(f).toEqual([
      {
        kind: "ineffective",
        severity: "warning",
        entry: 'toolName = "glob", decision = "allow", priority = 950',
        by: undefined,
      },
    ]);
  });
});
