import { existsSync, mkdirSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addEntry } from "./add-entry";
import { InvalidInputError, InvalidStoreError, SymlinkRefusedError } from "@/lib/errors";
import { listEntries } from "./list-entries";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

describe("addEntry", () => {
  it("creates a missing Claude Code store and its folder", async () => {
    const result = await addEntry({
      ...sb.paths,
      agent: "claude-code",
      scope: "workspace",
      action: "allow",
      rule: "Bash(npm test)",
    });
    expect(result.store).toBe(sb.abs(".claude/settings.local.json"));
    expect(sb.read(".claude/settings.local.json")).toBe(
      '{\n  "permissions": {\n    "allow": [\n      "Bash(npm test)"\n    ]\n  }\n}\n',
    );
    const { entries } = await listEntries(sb.paths);
    expect(entries.map((e) => e.id)).toEqual([result.id]);
    expect(result.after.text).toContain("Bash(npm test)");
  });

  it("appends in the file's own style (tabs; CRLF with 3 spaces) and keeps the rest", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    await addEntry({
      ...sb.paths,
      agent: "claude-code",
      scope: "workspace",
      file: "settings.json",
      action: "allow",
      rule: "Bash(ls:*)",
    });
    expect(sb.read(".claude/settings.json")).toBe(
      FIXTURES.claudeTabs.replace('"Read(~/.zshrc)"\n', '"Read(~/.zshrc)",\n\t\t\t"Bash(ls:*)"\n'),
    );
    sb.write("~/.claude/settings.json", FIXTURES.claudeCrlf3);
    const g = await addEntry({
      ...sb.paths,
      agent: "claude-code",
      scope: "global",
      action: "ask",
      rule: "Bash(git rebase *)",
    });
    expect(sb.read("~/.claude/settings.json")).toBe(
      FIXTURES.claudeCrlf3.replace(
        '"Bash(git push *)"\r\n',
        '"Bash(git push *)",\r\n         "Bash(git rebase *)"\r\n',
      ),
    );
    expect(g.scopeWarning).toMatch(/affects every project/);
  });

  it.each([
    ['{"model": "x"}', '{"model": "x", "permissions": {"ask": ["Bash(ls)"]}}'],
    [
      '{\n  "model": "x"\n}\n',
      '{\n  "model": "x",\n  "permissions": {\n    "ask": [\n      "Bash(ls)"\n    ]\n  }\n}\n',
    ],
    ["{}", '{\n  "permissions": {\n    "ask": [\n      "Bash(ls)"\n    ]\n  }\n}'],
    ['{"permissions": {"ask": []}}', '{"permissions": {"ask": ["Bash(ls)"]}}'],
    [
      FIXTURES.claudeTabs,
      FIXTURES.claudeTabs.replace('"Bash(curl *)"]\n', '"Bash(curl *)"],\n\t\t"ask": [\n\t\t\t"Bash(ls)"\n\t\t]\n'),
    ],
  ])("creates missing lists and objects in place: %j", async (before, after) => {
    sb.write(".claude/settings.json", before);
    await addEntry({
      ...sb.paths,
      agent: "claude-code",
      scope: "workspace",
      file: "settings.json",
      action: "ask",
      rule: "Bash(ls)",
    });
    expect(sb.read(".claude/settings.json")).toBe(after);
  });

  it("is a no-op for an entry already present, and refuses malformed rules and invalid stores", async () => {
    sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
    const again = await addEntry({
      ...sb.paths,
      agent: "commandcode",
      scope: "workspace",
      file: "settings.json",
      action: "allow",
      rule: "Shell(git:*)",
    });
    expect(again.unchanged).toBe(true);
    expect(sb.read(".commandcode/settings.json")).toBe(FIXTURES.commandcodeJsonc);
    await expect(
      addEntry({ ...sb.paths, agent: "commandcode", scope: "workspace", action: "allow", rule: "Shell(git" }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    sb.write("~/.commandcode/settings.json", "{ nope");
    await expect(
      addEntry({ ...sb.paths, agent: "commandcode", scope: "global", action: "deny", rule: "Shell(rm:*)" }),
    ).rejects.toBeInstanceOf(InvalidStoreError);
    expect(sb.read("~/.commandcode/settings.json")).toBe("{ nope");
  });

  it("mevedel: creates the skeleton, appends rules and grants, writes ~/ paths", async () => {
    await addEntry({
      ...sb.paths,
      agent: "mevedel",
      scope: "workspace",
      action: "allow",
      rule: '("Bash" :pattern "make *")',
    });
    expect(sb.read(".mevedel/permissions.el")).toBe(
      '(:rules\n (("Bash" :pattern "make *" :action allow))\n :resource-grants nil)\n',
    );
    await addEntry({ ...sb.paths, agent: "mevedel", scope: "workspace", action: "deny", rule: "Bash(rm *)" });
    await addEntry({
      ...sb.paths,
      agent: "mevedel",
      scope: "workspace",
      action: "allow",
      rule: `(:path "${sb.home}/notes" :access read)`,
    });
    expect(sb.read(".mevedel/permissions.el")).toBe(
      '(:rules\n (("Bash" :pattern "make *" :action allow)\n  ("Bash" :pattern "rm *" :action deny))\n :resource-grants ((:path "~/notes" :access read)))\n',
    );
    const { entries } = await listEntries(sb.paths);
    expect(entries.map((e) => e.kind)).toEqual(["rule", "rule", "grant"]);
  });

  it("mevedel: appends into the existing layout", async () => {
    sb.write("~/.mevedel/permissions.el", FIXTURES.mevedel);
    await addEntry({
      ...sb.paths,
      agent: "mevedel",
      scope: "global",
      action: "ask",
      rule: '("WebFetch" :domain "*.example.com" :action ask)',
    });
    expect(sb.read("~/.mevedel/permissions.el")).toBe(
      FIXTURES.mevedel.replace(
        '("Bash" :pattern "rm *" :action deny))',
        '("Bash" :pattern "rm *" :action deny)\n  ("WebFetch" :domain "*.example.com" :action ask))',
      ),
    );
    await expect(
      addEntry({
        ...sb.paths,
        agent: "mevedel",
        scope: "global",
        action: "allow",
        rule: '("Bash" :pattern "x" :action deny)',
      }),
    ).rejects.toThrow(/--action is allow/);
    await expect(
      addEntry({ ...sb.paths, agent: "mevedel", scope: "global", action: "allow", rule: "#(eval)" }),
    ).rejects.toBeInstanceOf(InvalidInputError);
  });

  it("refuses to create a store through a symlinked folder", async () => {
    const elsewhere = path.join(sb.root, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, sb.abs(".claude"));
    await expect(
      addEntry({ ...sb.paths, agent: "claude-code", scope: "workspace", action: "allow", rule: "Bash(ls)" }),
    ).rejects.toBeInstanceOf(SymlinkRefusedError);
    expect(existsSync(path.join(elsewhere, "settings.local.json"))).toBe(false);
  });

  it("new files are owner-writable regular files", async () => {
    await addEntry({ ...sb.paths, agent: "commandcode", scope: "global", action: "allow", rule: "Shell(ls)" });
    const stat = statSync(sb.abs("~/.commandcode/settings.json"));
    expect(stat.isFile()).toBe(true);
    expect(stat.mode & 0o600).toBe(0o600);
  });
});
