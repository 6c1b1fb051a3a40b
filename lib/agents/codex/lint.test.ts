/**
 * Hygiene of Codex prefix rules in Codex's semantics (every match counts, the strictest decision wins, whichever
 * file holds it), on real folders through `stores.lint`, and the broken file as the one error.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stores } from "./stores";

let root: string;
let home: string;
let ws: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "codex-lint-"));
  home = path.join(root, "home");
  ws = path.join(root, "ws");
  await mkdir(path.join(ws, ".git"), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const put = async (rel: string, text: string) => {
  const file = path.join(home, ".codex", "rules", rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
};
const scope = () => ({ workspace: ws, home, etcDir: path.join(root, "etc") });

async function findings() {
  const listing = await stores.list(scope());
  const ruleOf = new Map(listing.entries.map((e) => [e.id, `${path.basename(e.store.path)}:${e.line}`]));
  const r = await stores.lint!(scope());
  return r.findings.map((f) => [f.kind, f.severity, ruleOf.get(f.entry) ?? f.entry, f.by ? ruleOf.get(f.by) : null]);
}

describe("codex lint", () => {
  it("finds duplicate, covered, shadowed and conflicting prefix rules, alternatives included", async () => {
    await put(
      "a.rules",
      [
        'prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")',
        'prefix_rule(pattern=["git", "push", "--force"], decision="allow")',
        'prefix_rule(pattern=["npm", ["test", "run"]], decision="allow")',
        'prefix_rule(pattern=["npm", "test", "--watch"], decision="allow")',
        'prefix_rule(pattern=[["ls", "cat"]], decision="allow")',
        "",
      ].join("\n"),
    );
    await put(
      "b.rules",
      [
        'prefix_rule(pattern=["cat"], decision="allow")',
        'prefix_rule(pattern=["npm", "run"], decision="forbidden")',
        'prefix_rule(pattern=[["fetch", "git"], ["fetch", "push"]], decision="prompt")',
        "",
      ].join("\n"),
    );
    expect(await findings()).toEqual(
      expect.arrayContaining([
        ["shadowed", "warning", "a.rules:2", "a.rules:1"],
        ["covered", "info", "a.rules:4", "a.rules:3"],
        ["conflicting", "warning", "a.rules:3", "b.rules:2"],
        ["covered", "info", "b.rules:1", "a.rules:5"],
        ["covered", "info", "a.rules:1", "b.rules:3"],
      ]),
    );
    // A carve-out in the same file is deliberate: not a conflict.
    expect(
      (await findings()).filter(([k, , e, by]) => k === "conflicting" && e === "a.rules:3" && by === "a.rules:4"),
    ).toEqual([]);
  });

  it("flags an exact duplicate once, the later one", async () => {
    await put("a.rules", 'prefix_rule(pattern=["make"], decision="allow")\n');
    await put("b.rules", '# same again\nprefix_rule(\n  pattern = ["make"],\n)\n');
    expect(await findings()).toEqual([["duplicate", "info", "b.rules:2", "a.rules:1"]]);
  });

  it("reports a broken rules file as an error: Codex ignores every rule", async () => {
    await put("a.rules", 'prefix_rule(pattern=["rm"], decision="forbidden")\n');
    const broken = await put("b.rules", 'prefix_rule(pattern=["ls"], decision="allowed")\n');
    const r = await stores.lint!(scope());
    expect(r.findings).toEqual([expect.objectContaining({ kind: "ineffective", severity: "error", entry: broken })]);
    expect(r.findings[0]!.message).toMatch(/^Codex is ignoring all your rules because of .*b\.rules, line 1/);
  });
});
