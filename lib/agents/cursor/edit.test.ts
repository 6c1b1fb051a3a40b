import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import { parseCursorConfig } from "./config";
import { addText, narrowText, revokeText } from "./edit";
import { editCursorStore } from "./io/write";
import { loadCursorStores } from "./io/stores";

const F = "/w/.cursor/cli.json";
const SAMPLE = `{
  // Team rules: reviewed in PR #12
  "permissions": {
    "allow": [
      "Shell(git)", // everyday
      "Shell(npm)",
      /* reads */ "Read(src/**)"
    ],
    "deny": ["Shell(rm)"]
  }
}
`;

const entries = (text: string) => parseCursorConfig(text, F, "workspace").rules.map((r) => `${r.action}:${r.text}`);

describe("pure edits keep every other byte", () => {
  it("revoke removes only the entry (and its line)", () => {
    const out = revokeText(SAMPLE, F, "workspace", { action: "allow", index: 1, text: "Shell(npm)" });
    expect(out).toBe(SAMPLE.replace('      "Shell(npm)",\n', ""));
    expect(entries(out)).toEqual(["allow:Shell(git)", "allow:Read(src/**)", "deny:Shell(rm)"]);
  });

  it("revoke of an entry with a trailing comment takes the comment's line with it", () => {
    const out = revokeText(SAMPLE, F, "workspace", { action: "allow", index: 0, text: "Shell(git)" });
    expect(out).not.toContain("everyday");
    expect(out).toContain("// Team rules: reviewed in PR #12");
    expect(out).toContain("/* reads */");
  });

  it("narrow replaces the string in place", () => {
    const out = narrowText(
      SAMPLE,
      F,
      "workspace",
      { action: "allow", index: 0, text: "Shell(git)" },
      "Shell(git:status*)",
    );
    expect(out).toBe(SAMPLE.replace('"Shell(git)"', '"Shell(git:status*)"'));
  });

  it("narrow allow → deny moves the entry to the deny list", () => {
    const out = narrowText(SAMPLE, F, "workspace", { action: "allow", index: 1, text: "Shell(npm)" }, "deny");
    expect(entries(out)).toEqual(["allow:Shell(git)", "allow:Read(src/**)", "deny:Shell(rm)", "deny:Shell(npm)"]);
    expect(out).toContain("// everyday");
  });

  it("narrow refuses what it cannot prove, ask included", () => {
    const ref = { action: "allow" as const, index: 0, text: "Shell(git)" };
    expect(() => narrowText(SAMPLE, F, "workspace", ref, "Shell(*)")).toThrow(/cannot prove narrower/);
    expect(() => narrowText(SAMPLE, F, "workspace", ref, "ask")).toThrow(/no ask list/);
    expect(() => narrowText(SAMPLE, F, "workspace", ref, "Bash(git)")).toThrow(/unknown permission type/);
  });

  it("add appends in the file's layout, creating lists as needed", () => {
    const out = addText(SAMPLE, F, "workspace", "deny", "Read(.env*)");
    expect(out).toContain('"deny": ["Shell(rm)", "Read(.env*)"]');
    expect(out.replace(', "Read(.env*)"', "")).toBe(SAMPLE);
    const fresh = addText("", F, "workspace", "allow", "Shell(ls)");
    expect(JSON.parse(fresh)).toEqual({ permissions: { allow: ["Shell(ls)"] } });
    const noList = addText('{\n  "version": 1\n}\n', F, "workspace", "allow", "Shell(ls)");
    expect(JSON.parse(noList)).toEqual({ version: 1, permissions: { allow: ["Shell(ls)"] } });
    expect(noList.startsWith('{\n  "version": 1,')).toBe(true);
  });

  it("add refuses duplicates and malformed tokens", () => {
    expect(() => addText(SAMPLE, F, "workspace", "allow", "Shell(git)")).toThrow(/already/);
    expect(() => addText(SAMPLE, F, "workspace", "allow", "shell(ls)")).toThrow(/spells it Shell/);
  });

  it("a stale reference is refused, never guessed", () => {
    expect(() => revokeText(SAMPLE, F, "workspace", { action: "allow", index: 1, text: "Shell(git)" })).toThrow(
      /changed on disk/,
    );
    expect(() => revokeText(SAMPLE, F, "workspace", { action: "allow", index: 9, text: "Shell(git)" })).toThrow(
      /no permissions/,
    );
  });

  it("an invalid file is never edited", () => {
    expect(() => addText("{ broken", F, "workspace", "allow", "Shell(ls)")).toThrow(/never overwritten/);
  });
});

describe("editCursorStore on disk", () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox("cursor-edit-");
  });
  afterEach(() => sb.cleanup());

  it("round-trips a commented cli.json through revoke, add and narrow", async () => {
    const file = sb.write(".cursor/cli.json", SAMPLE);
    const [, project] = await loadCursorStores({ workspace: sb.workspace, home: sb.home });
    expect(project).toMatchObject({ path: file, valid: true, writable: true });
    const target = { file, scope: "workspace" as const, root: sb.workspace, expectedVersion: project.version };
    const r1 = await editCursorStore(target, (t) =>
      revokeText(t, file, "workspace", { action: "allow", index: 1, text: "Shell(npm)" }),
    );
    const r2 = await editCursorStore({ ...target, expectedVersion: r1.version }, (t) =>
      addText(t, file, "workspace", "allow", "Shell(npm:test)"),
    );
    await editCursorStore({ ...target, expectedVersion: r2.version }, (t) =>
      narrowText(t, file, "workspace", { action: "allow", index: 0, text: "Shell(git)" }, "Shell(git:log*)"),
    );
    const text = readFileSync(file, "utf8");
    expect(text).toContain("// Team rules: reviewed in PR #12");
    expect(text).toContain("/* reads */");
    expect(entries(text)).toEqual([
      "allow:Shell(git:log*)",
      "allow:Read(src/**)",
      "allow:Shell(npm:test)",
      "deny:Shell(rm)",
    ]);
  });

  it("a changed file is refused (compare-and-swap)", async () => {
    const file = sb.write(".cursor/cli.json", SAMPLE);
    const [, project] = await loadCursorStores({ workspace: sb.workspace, home: sb.home });
    writeFileSync(file, SAMPLE.replace("Shell(npm)", "Shell(pnpm)"));
    await expect(
      editCursorStore({ file, scope: "workspace", root: sb.workspace, expectedVersion: project.version }, (t) =>
        addText(t, file, "workspace", "allow", "Shell(ls)"),
      ),
    ).rejects.toThrow(/changed on disk/);
    expect(readFileSync(file, "utf8")).toContain("Shell(pnpm)");
  });

  it("a broken file is reported invalid and left untouched", async () => {
    const file = sb.write(".cursor/cli.json", '{"permissions": {"allow": [1]}}');
    const [, project] = await loadCursorStores({ workspace: sb.workspace, home: sb.home });
    expect(project).toMatchObject({
      valid: false,
      writable: false,
      error: expect.stringMatching(/permissions\.allow\.0/),
    });
    await expect(
      editCursorStore({ file, scope: "workspace", root: sb.workspace }, (t) =>
        addText(t, file, "workspace", "allow", "Shell(ls)"),
      ),
    ).rejects.toThrow(/never overwritten/);
    expect(readFileSync(file, "utf8")).toBe('{"permissions": {"allow": [1]}}');
  });

  it("writes through a symlinked .cursor folder are refused", async () => {
    const elsewhere = path.join(sb.root, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, "cli.json"), "{}");
    symlinkSync(elsewhere, path.join(sb.workspace, ".cursor"));
    const file = path.join(sb.workspace, ".cursor", "cli.json");
    await expect(
      editCursorStore({ file, scope: "workspace", root: sb.workspace }, (t) =>
        addText(t, file, "workspace", "allow", "Shell(ls)"),
      ),
    ).rejects.toThrow(/symlink/);
    expect(readFileSync(path.join(elsewhere, "cli.json"), "utf8")).toBe("{}");
    rmSync(path.join(sb.workspace, ".cursor"));
  });

  it("creates a missing project file", async () => {
    const file = path.join(sb.workspace, ".cursor", "cli.json");
    await editCursorStore({ file, scope: "workspace", root: sb.workspace, expectedVersion: "missing" }, (t) =>
      addText(t, file, "workspace", "allow", "Shell(npm:test)"),
    );
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ permissions: { allow: ["Shell(npm:test)"] } });
  });
});
