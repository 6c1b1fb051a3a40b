import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listEntries } from "./list-entries";
import { loadPolicyInputs } from "@/lib/agents/shared/ladder-inputs";
import { inputsOf } from "@/test/support/ladder";
import type { SessionEntryRow } from "./session";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

describe("listEntries", () => {
  it("lists all three formats with scope, kind, store, line and labels", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
    sb.write(".mevedel/permissions.el", FIXTURES.mevedel);
    sb.write("~/.claude/settings.json", FIXTURES.claudeCrlf3);
    const { entries, stores } = await listEntries(sb.paths);
    expect(stores).toHaveLength(8);
    const claude = entries.filter((e) => e.store.path === sb.abs(".claude/settings.json"));
    expect(claude.map((e) => [e.action, e.rule, e.line])).toEqual([
      ["allow", "Bash(git log:*)", 4],
      ["allow", "Bash(npm run test:*)", 5],
      ["allow", "Read(~/.zshrc)", 6],
      ["deny", "Read(./.env)", 8],
      ["deny", "Bash(curl *)", 8],
    ]);
    expect(claude[0]).toMatchObject({
      scope: "workspace",
      kind: "rule",
      agent: "claude-code",
      writable: true,
      store: { format: "claude-json", valid: true },
    });
    expect(claude[0].store.version).toMatch(/^[0-9a-f]{64}$/);
    expect(claude[0].tool).toBe("Shell");
    expect(claude[0].specifier).toBe("git log *");

    const global = entries.filter((e) => e.scope === "global");
    expect(global.map((e) => e.rule)).toEqual([
      "Bash(git status:*)",
      "WebFetch(domain:exämple.com)",
      "Bash(git push *)",
    ]);
    expect(global.map((e) => e.line)).toEqual([4, 5, 8]);

    const cc = entries.filter((e) => e.agent === "commandcode");
    expect(cc.map((e) => e.rule)).toEqual(["Shell(git:*)", "Edit(src/**)", "mcp__github__*", "Shell(rm -rf *)"]);

    const mev = entries.filter((e) => e.agent === "mevedel");
    expect(mev.map((e) => [e.kind, e.action, e.line])).toEqual([
      ["rule", "ask", 4],
      ["rule", "allow", 5],
      ["profile", "allow", 6],
      ["rule", "deny", 11],
      ["grant", "allow", 13],
      ["grant", "allow", 14],
    ]);
    expect(mev[1].rule).toBe('("Bash" :pattern "git log*" :action allow)');
    expect(mev[2].profile).toEqual({
      network: true,
      fileSystem: [
        { path: "~/.npm", access: "write", recursive: true, label: "recursive" },
        { path: "/usr/share/emacs", access: "read", recursive: true, label: "recursive" },
      ],
    });
    expect(mev[4].grant).toEqual({ path: "~/notes", access: "read", recursive: false, label: "exact" });
    expect(mev[5].grant?.label).toBe("recursive");
  });

  it("keeps ids stable across refreshes and distinct for identical entries in different files", async () => {
    const same = '{"permissions":{"allow":["Bash(ls:*)","Bash(ls:*)"]}}';
    sb.write(".claude/settings.json", same);
    sb.write(".claude/settings.local.json", same);
    sb.write("~/.claude/settings.json", same);
    const a = await listEntries(sb.paths);
    const b = await listEntries(sb.paths);
    expect(a.entries.map((e) => e.id)).toEqual(b.entries.map((e) => e.id));
    expect(new Set(a.entries.map((e) => e.id)).size).toBe(6);
  });

  it("lists missing, empty, invalid and wrong-shaped stores", async () => {
    sb.write(".claude/settings.json", "");
    sb.write(".claude/settings.local.json", '{"permissions": {"allow": "Bash(ls)"}}');
    sb.write("~/.claude/settings.json", '{"permissions": {"allow": [1]}}');
    sb.write(".commandcode/settings.json", '{"permissions": {"allow": ["a"]'); // truncated
    sb.write(".commandcode/settings.local.json", '{"permissions": {"allow": []}, "permissions": {}}');
    sb.write(".mevedel/permissions.el", '(:rules (("Bash" :pattern "x" :action allow)) :resource-grants)');
    sb.write("~/.mevedel/permissions.el", '(:rules (("Bash" :pattern "x" :action maybe)))');
    sb.write("~/.commandcode/settings.json", Buffer.from([0x7b, 0xff, 0x7d]));
    const { entries, stores } = await listEntries(sb.paths);
    expect(entries).toEqual([]);
    const by = (rel: string) => stores.find((s) => s.path === sb.abs(rel))!;
    expect(by(".claude/settings.json")).toMatchObject({ valid: true, entryCount: 0 });
    expect(by(".claude/settings.local.json")).toMatchObject({ valid: false, writable: false });
    expect(by(".claude/settings.local.json").error).toMatch(/wrong shape: permissions\.allow/);
    expect(by("~/.claude/settings.json").error).toMatch(/permissions\.allow\.0/);
    expect(by(".commandcode/settings.json").error).toMatch(/^line 1, column \d+: /);
    expect(by(".commandcode/settings.local.json").error).toMatch(/duplicate key "permissions"/);
    expect(by(".mevedel/permissions.el").error).toMatch(/odd number/);
    expect(by("~/.mevedel/permissions.el").error).toMatch(/line 1, column 10: wrong shape: rule action/);
    expect(by("~/.commandcode/settings.json").error).toMatch(/UTF-8/);
  });

  it("treats a missing store as valid and empty, and Claude files as strict JSON", async () => {
    sb.write(".claude/settings.json", '{"permissions": {"allow": ["Bash(ls)"]}} // no comments in Claude files');
    const { stores } = await listEntries({ ...sb.paths, agent: "claude-code" });
    expect(stores.find((s) => s.path === sb.abs(".claude/settings.local.json"))).toMatchObject({
      valid: true,
      version: "missing",
      entryCount: 0,
    });
    expect(stores.find((s) => s.path === sb.abs(".claude/settings.json"))?.error).toMatch(
      /InvalidCommentToken|InvalidSymbol/,
    );
  });

  it("flags malformed rules but still lists them", async () => {
    sb.write(".claude/settings.json", '{"permissions": {"allow": ["Bash(unclosed", "*"]}}');
    const { entries } = await listEntries(sb.paths);
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => typeof e.malformed === "string")).toBe(true);
  });

  it("lists the managed store read-only and marks symlinked stores not writable", async () => {
    const managed = path.join(sb.root, "managed-settings.json");
    writeFileSync(managed, '{"permissions": {"deny": ["Bash(sudo *)"]}}');
    const real = path.join(sb.root, "elsewhere");
    mkdirSync(real);
    writeFileSync(path.join(real, "settings.json"), '{"permissions": {"allow": ["Bash(ls)"]}}');
    symlinkSync(real, sb.abs(".claude"));
    const { entries } = await listEntries({ ...sb.paths, managedSettingsPath: managed, agent: "claude-code" });
    const m = entries.find((e) => e.scope === "managed")!;
    expect(m).toMatchObject({ rule: "Bash(sudo *)", writable: false });
    const linked = entries.find((e) => e.scope === "workspace")!;
    expect(linked.writable).toBe(false);
  });

  it("merges session entries from a source and filters by scope and agent", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    const rows: SessionEntryRow[] = [
      {
        id: "r1",
        agentSessionId: "s-1",
        agent: "claude-code",
        action: "allow",
        rule: "Bash(make:*)",
        createdAt: "2026-01-01T00:00:00Z",
      },
      {
        id: "r2",
        agentSessionId: "s-2",
        agent: "mevedel",
        action: "allow",
        rule: '("Bash" :pattern "make *" :action allow)',
        createdAt: "2026-01-01T00:00:00Z",
      },
    ];
    const all = await listEntries({ ...sb.paths, sessionRows: rows });
    expect(all.entries.filter((e) => e.scope === "session").map((e) => e.id)).toEqual(["session:r1", "session:r2"]);
    expect(all.stores.at(-1)).toMatchObject({ format: "database", scope: "session" });
    const only = await listEntries({ ...sb.paths, sessionRows: rows, scope: "session", agent: "claude-code" });
    expect(only.entries.map((e) => e.rule)).toEqual(["Bash(make:*)"]);
    expect(only.entries[0]).toMatchObject({ agentSessionId: "s-1", store: { format: "database" }, tool: "Shell" });
  });

  // Speed is measured in bench/stores/list-entries.ts; here only that a large store lists whole and in order.
  it("lists a 5,000-entry settings file whole, every entry on its own line", async () => {
    const rules = Array.from({ length: 5_000 }, (_, i) => `    "Bash(tool-${i}:*)"`).join(",\n");
    sb.write(".claude/settings.json", `{\n  "permissions": {\n    "allow": [\n${rules}\n    ]\n  }\n}\n`);
    const { entries } = await listEntries({ ...sb.paths, agent: "claude-code" });
    expect(entries).toHaveLength(5_000);
    expect(entries[0]).toMatchObject({ rule: "Bash(tool-0:*)", line: 4 });
    expect(entries[4_999]).toMatchObject({ rule: "Bash(tool-4999:*)", line: 5_003 });
  });

  it("lists a 5,000-entry plist whole, in the file's order", async () => {
    const rules = Array.from({ length: 5_000 }, (_, i) => `  ("Bash" :pattern "tool-${i} *" :action allow)`).join("\n");
    sb.write(".mevedel/permissions.el", `(:rules\n (\n${rules})\n :resource-grants nil)\n`);
    const { entries } = await listEntries({ ...sb.paths, agent: "mevedel" });
    expect(entries).toHaveLength(5_000);
    expect(entries.map((e) => e.action).every((a) => a === "allow")).toBe(true);
    expect(entries[0]!.rule).toContain('"tool-0 *"');
    expect(entries[4_999]!.rule).toContain('"tool-4999 *"');
  });
});

describe("loadPolicyInputs", () => {
  it("collects rules, grants, directories, mode and bypass switch; invalid stores add nothing", async () => {
    sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
    sb.write(
      ".commandcode/settings.local.json",
      '{"permissions": {"additionalDirectories": ["../docs", "~/shared"], "defaultMode": "plan"}}',
    );
    sb.write("~/.commandcode/settings.json", "{ broken");
    const inputs = await loadPolicyInputs({ ...sb.paths, ...inputsOf("commandcode") });
    expect(inputs.rules.map((r) => r.text)).toEqual([
      "Shell(git:*)",
      "Edit(src/**)",
      "mcp__github__*",
      "Shell(rm -rf *)",
    ]);
    expect(inputs.defaultMode).toBe("plan");
    expect(inputs.disableBypass).toBe(true);
    expect(inputs.additionalDirectories).toEqual([path.join(sb.root, "docs"), path.join(sb.home, "shared")]);
    expect(inputs.stores.find((s) => !s.valid)).toBeTruthy();

    sb.write(".mevedel/permissions.el", FIXTURES.mevedel);
    const mev = await loadPolicyInputs({ ...sb.paths, ...inputsOf("mevedel") });
    expect(mev.rules).toHaveLength(4);
    expect(mev.grants.map((g) => g.path)).toEqual([path.join(sb.home, "notes"), "/srv/data"]);
    expect(mev.rules[2].profile?.network).toBe(true);
  });
});
