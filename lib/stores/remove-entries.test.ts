import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lintWorkspace, removableIds } from "@/lib/hygiene";
import { unifiedDiff } from "@/lib/hygiene/unified-diff";
import { listEntries } from "./list-entries";
import { loadLintItems } from "./load-lint-items";
import { applyRemovals, planRemovals } from "./remove-entries";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox("remove-")));
afterEach(() => sb.cleanup());

describe("planRemovals / applyRemovals (clean-up)", () => {
  it("removes covered and duplicate entries from JSON and plist stores, keeping the rest byte-for-byte", async () => {
    sb.write(
      ".commandcode/settings.json",
      '{\n  // keep me\n  "permissions": {\n    "allow": [\n      "Shell(git:*)",\n      "Shell(git status:*)", // covered\n      "Shell(git:*)"\n    ]\n  }\n}\n',
    );
    sb.write(
      ".mevedel/permissions.el",
      '(:rules\n (("Bash" :pattern "git *" :action allow)\n  ("Bash" :pattern "git log *" :action allow) ; covered\n  ("Bash" :pattern "rm *" :action deny)))\n',
    );
    const { items } = await loadLintItems(sb.paths);
    const ids = removableIds(lintWorkspace({ workspace: sb.workspace, home: sb.home, items }).findings);
    expect(ids).toHaveLength(3);
    const plans = await planRemovals(sb.paths, ids);
    expect(plans.map((p) => p.removed.length).sort()).toEqual([1, 2]);
    const json = plans.find((p) => p.store.endsWith("settings.json"))!;
    expect(json.after).toBe(
      '{\n  // keep me\n  "permissions": {\n    "allow": [\n      "Shell(git:*)"\n    ]\n  }\n}\n',
    );
    const diff = unifiedDiff(json.before, json.after, json.store);
    expect(diff).toContain('-      "Shell(git status:*)", // covered');
    expect(diff).toContain("@@ -");
    // Nothing is written by the plan.
    expect(sb.read(".commandcode/settings.json")).toBe(json.before);
    await applyRemovals(sb.paths, plans);
    expect(sb.read(".commandcode/settings.json")).toBe(json.after);
    expect(sb.read(".mevedel/permissions.el")).toBe(
      '(:rules\n (("Bash" :pattern "git *" :action allow)\n  ("Bash" :pattern "rm *" :action deny)))\n',
    );
    const left = (await listEntries(sb.paths)).entries.map((e) => e.rule);
    expect(left).toHaveLength(3);
  });

  it("refuses to write a file that changed after the plan", async () => {
    sb.write(
      ".claude/settings.json",
      FIXTURES.claudeTabs.replace('"Bash(git log:*)",', '"Bash(git log:*)",\n\t\t\t"Bash(git log:*)",'),
    );
    const { items } = await loadLintItems(sb.paths);
    const plans = await planRemovals(
      sb.paths,
      removableIds(lintWorkspace({ workspace: sb.workspace, home: sb.home, items }).findings),
    );
    expect(plans).toHaveLength(1);
    sb.write(".claude/settings.json", sb.read(".claude/settings.json") + "\n");
    await expect(applyRemovals(sb.paths, plans)).rejects.toThrow(/changed on disk/);
  });
});
