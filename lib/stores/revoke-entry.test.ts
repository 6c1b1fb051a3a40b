import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  StoreChangedError,
  EntryNotFoundError,
  ReadOnlyStoreError,
  StoreLockedError,
  SymlinkRefusedError,
} from "@/lib/errors";
import { listEntries } from "./list-entries";
import { revokeEntry } from "./revoke-entry";
import { memorySessionSource } from "@/test/support/stores";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";
import type { Entry } from "./types";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

async function entry(predicate: (e: Entry) => boolean): Promise<Entry> {
  const { entries } = await listEntries(sb.paths);
  const hit = entries.find(predicate);
  if (!hit) throw new Error("fixture entry not found");
  return hit;
}
const revoke = (e: Entry) => revokeEntry({ ...sb.paths, id: e.id, expectedVersion: e.store.version });

describe("revokeEntry: byte-exact JSON edits", () => {
  it.each([
    [
      "first of a tab-indented list",
      FIXTURES.claudeTabs,
      "Bash(git log:*)",
      FIXTURES.claudeTabs.replace('\t\t\t"Bash(git log:*)",\n', ""),
    ],
    [
      "middle item",
      FIXTURES.claudeTabs,
      "Bash(npm run test:*)",
      FIXTURES.claudeTabs.replace('\t\t\t"Bash(npm run test:*)",\n', ""),
    ],
    [
      "last item (comma of the previous goes)",
      FIXTURES.claudeTabs,
      "Read(~/.zshrc)",
      FIXTURES.claudeTabs.replace('"Bash(npm run test:*)",\n\t\t\t"Read(~/.zshrc)"\n', '"Bash(npm run test:*)"\n'),
    ],
    [
      "first of an inline list",
      FIXTURES.claudeTabs,
      "Read(./.env)",
      FIXTURES.claudeTabs.replace('["Read(./.env)", "Bash(curl *)"]', '["Bash(curl *)"]'),
    ],
    [
      "last of an inline list",
      FIXTURES.claudeTabs,
      "Bash(curl *)",
      FIXTURES.claudeTabs.replace('["Read(./.env)", "Bash(curl *)"]', '["Read(./.env)"]'),
    ],
    [
      "CRLF, 3-space indent, unicode",
      FIXTURES.claudeCrlf3,
      "Bash(git status:*)",
      FIXTURES.claudeCrlf3.replace('         "Bash(git status:*)",\r\n', ""),
    ],
    [
      "CRLF only item",
      FIXTURES.claudeCrlf3,
      "Bash(git push *)",
      FIXTURES.claudeCrlf3.replace('         "Bash(git push *)"\r\n', ""),
    ],
  ])("%s", async (_name, before, rule, expected) => {
    sb.write(".claude/settings.json", before);
    const result = await revoke(await entry((e) => e.rule === rule));
    expect(sb.read(".claude/settings.json")).toBe(expected);
    expect(result.before.text).toContain(JSON.stringify(rule));
    expect(result.after.version).not.toBe(result.before.version);
    expect(result.scopeWarning).toBeUndefined();
  });

  it.each([
    [
      "item with a trailing line comment",
      "Shell(git:*)",
      FIXTURES.commandcodeJsonc.replace('      "Shell(git:*)", // everything git\n', ""),
    ],
    [
      "item before a trailing comma",
      "mcp__github__*",
      FIXTURES.commandcodeJsonc.replace('      "mcp__github__*",\n', ""),
    ],
    ["sole inline item", "Shell(rm -rf *)", FIXTURES.commandcodeJsonc.replace('["Shell(rm -rf *)"]', "[]")],
  ])("JSONC: %s", async (_name, rule, expected) => {
    sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
    await revoke(await entry((e) => e.rule === rule));
    expect(sb.read(".commandcode/settings.json")).toBe(expected);
  });

  it("keeps a BOM and only touches the entry", async () => {
    const text = '\uFEFF{"permissions": {"allow": ["Bash(a)", "Bash(b)"]}}';
    sb.write(".claude/settings.json", text);
    await revoke(await entry((e) => e.rule === "Bash(a)"));
    expect(sb.read(".claude/settings.json")).toBe('\uFEFF{"permissions": {"allow": ["Bash(b)"]}}');
  });
});

describe("revokeEntry: byte-exact plist edits", () => {
  const file = ".mevedel/permissions.el";
  it.each([
    [
      "rule with its trailing comment",
      '("Bash" :action ask)',
      FIXTURES.mevedel.replace(
        ' (("Bash" :action ask)                       ; default ask\n  ("Bash" :pattern "git log*"',
        ' (("Bash" :pattern "git log*"',
      ),
    ],
    [
      "rule on its own line",
      '("Bash" :pattern "git log*" :action allow)',
      FIXTURES.mevedel.replace('  ("Bash" :pattern "git log*" :action allow)\n', ""),
    ],
    [
      "multi-line profile",
      "profile",
      FIXTURES.mevedel.replace(/  \("Bash" :pattern "npx[\s\S]*?:action allow\)\n/, ""),
    ],
    [
      "last rule before closing parens",
      '("Bash" :pattern "rm *" :action deny)',
      FIXTURES.mevedel.replace('\n  ("Bash" :pattern "rm *" :action deny))', ")"),
    ],
    [
      "first grant",
      '(:path "~/notes" :access read)',
      FIXTURES.mevedel.replace('((:path "~/notes" :access read)\n  (:path "/srv/data"', '((:path "/srv/data"'),
    ],
    [
      "last grant",
      '(:path "/srv/data" :access write :recursive t)',
      FIXTURES.mevedel.replace('\n  (:path "/srv/data" :access write :recursive t)))', "))"),
    ],
  ])("%s", async (_name, rule, expected) => {
    sb.write(file, FIXTURES.mevedel);
    const target = await entry((e) => (rule === "profile" ? e.kind === "profile" : e.rule === rule));
    const result = await revoke(target);
    expect(sb.read(file)).toBe(expected);
    expect(result.before.line).toBe(target.line);
  });

  it("inline lists and CRLF", async () => {
    sb.write(
      file,
      '(:rules (("Read" :path "a" :action allow) ("Read" :path "b" :action deny)) :resource-grants nil)\r\n',
    );
    await revoke(await entry((e) => e.rule.includes('"a"')));
    expect(sb.read(file)).toBe('(:rules (("Read" :path "b" :action deny)) :resource-grants nil)\r\n');
    await revoke(await entry((e) => e.rule.includes('"b"')));
    expect(sb.read(file)).toBe("(:rules () :resource-grants nil)\r\n");
  });

  it("does not join closing parens into a comment", async () => {
    const text = '(:rules\n (("Bash" :action ask) ; keep me\n  ("Bash" :pattern "x" :action deny)))\n';
    sb.write(file, text);
    await revoke(await entry((e) => e.action === "deny"));
    expect(sb.read(file)).toBe('(:rules\n (("Bash" :action ask) ; keep me\n  ))\n');
  });

  it("refuses while Emacs holds a lock on the file", async () => {
    const abs = sb.write(file, FIXTURES.mevedel);
    symlinkSync("user@host.123:456", path.join(path.dirname(abs), ".#permissions.el"));
    await expect(revoke(await entry((e) => e.kind === "grant"))).rejects.toBeInstanceOf(StoreLockedError);
    expect(sb.read(file)).toBe(FIXTURES.mevedel);
  });
});

describe("revokeEntry: refusals", () => {
  it("global entries say they affect every project", async () => {
    sb.write("~/.claude/settings.json", FIXTURES.claudeCrlf3);
    const result = await revoke(await entry((e) => e.scope === "global"));
    expect(result.scopeWarning).toMatch(/affects every project/);
    expect(result.store).toBe(sb.abs("~/.claude/settings.json"));
  });

  it("revokes only the entry in its own file when identical entries exist elsewhere", async () => {
    const same = '{"permissions":{"allow":["Bash(ls:*)"]}}';
    sb.write(".claude/settings.json", same);
    sb.write("~/.claude/settings.json", same);
    await revoke(await entry((e) => e.scope === "global"));
    expect(sb.read(".claude/settings.json")).toBe(same);
    expect(sb.read("~/.claude/settings.json")).toBe('{"permissions":{"allow":[]}}');
  });

  it("refuses an external edit made after listing; the edit survives", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    const target = await entry((e) => e.rule === "Bash(git log:*)");
    const edited = FIXTURES.claudeTabs.replace('"model": "opus"', '"model": "sonnet"');
    sb.write(".claude/settings.json", edited);
    await expect(revoke(target)).rejects.toThrow(StoreChangedError);
    await expect(revoke(target)).rejects.toThrow("changed on disk — refresh");
    expect(sb.read(".claude/settings.json")).toBe(edited);
  });

  it("two revokes racing on one listed version: exactly one wins", async () => {
    sb.write(".mevedel/permissions.el", FIXTURES.mevedel);
    const { entries } = await listEntries(sb.paths);
    const [a, b] = entries.filter((e) => e.kind === "grant");
    const results = await Promise.allSettled([revoke(a), revoke(b), revoke(a)]);
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(StoreChangedError);
    const after = await listEntries(sb.paths);
    expect(after.entries).toHaveLength(entries.length - 1);
  });

  it("refuses symlinked store files and folders, leaving the target untouched", async () => {
    const outside = path.join(sb.root, "outside.json");
    writeFileSync(outside, '{"permissions":{"allow":["Bash(ls)"]}}');
    mkdirSync(sb.abs(".claude"));
    symlinkSync(outside, sb.abs(".claude/settings.json"));
    const viaFile = await entry(() => true);
    expect(viaFile.writable).toBe(false);
    await expect(revoke(viaFile)).rejects.toBeInstanceOf(SymlinkRefusedError);

    const realDir = path.join(sb.root, "real-mevedel");
    mkdirSync(realDir);
    writeFileSync(path.join(realDir, "permissions.el"), FIXTURES.mevedel);
    symlinkSync(realDir, sb.abs(".mevedel"));
    const viaDir = await entry((e) => e.agent === "mevedel");
    await expect(revoke(viaDir)).rejects.toBeInstanceOf(SymlinkRefusedError);
    expect(readFileSync(outside, "utf8")).toBe('{"permissions":{"allow":["Bash(ls)"]}}');
    expect(readFileSync(path.join(realDir, "permissions.el"), "utf8")).toBe(FIXTURES.mevedel);
  });

  it("refuses when the file is swapped for a symlink after listing", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    const target = await entry(() => true);
    const outside = path.join(sb.root, "passwd");
    writeFileSync(outside, "root:x:0:0\n");
    const { unlinkSync } = await import("node:fs");
    unlinkSync(sb.abs(".claude/settings.json"));
    symlinkSync(outside, sb.abs(".claude/settings.json"));
    await expect(revokeEntry({ ...sb.paths, id: target.id })).rejects.toThrow();
    expect(readFileSync(outside, "utf8")).toBe("root:x:0:0\n");
  });

  it("managed entries are read-only; unknown ids are not found", async () => {
    const managed = path.join(sb.root, "managed.json");
    writeFileSync(managed, '{"permissions":{"deny":["Bash(sudo *)"]}}');
    const { entries } = await listEntries({ ...sb.paths, managedSettingsPath: managed });
    await expect(revokeEntry({ ...sb.paths, managedSettingsPath: managed, id: entries[0].id })).rejects.toBeInstanceOf(
      ReadOnlyStoreError,
    );
    await expect(revokeEntry({ ...sb.paths, id: "0000000000000000" })).rejects.toBeInstanceOf(EntryNotFoundError);
  });

  it.each([
    ["JSON broken after listing", ".claude/settings.json", FIXTURES.claudeTabs, (t: string) => t.replace(/\}\n$/, "")],
    [
      "JSON with a non-string rule",
      ".claude/settings.json",
      FIXTURES.claudeTabs,
      (t: string) => t.replace("]", ", 3]"),
    ],
    ["plist broken after listing", ".mevedel/permissions.el", FIXTURES.mevedel, (t: string) => `${t}\n(unbalanced`],
  ])(
    "an invalid file is never written (%s): refused, byte-identical, mtime unchanged",
    async (_n, rel, valid, breakIt) => {
      sb.write(rel, valid);
      const target = await entry((e) => e.store.path === sb.abs(rel));
      const broken = breakIt(valid);
      expect(broken).not.toBe(valid);
      const file = sb.write(rel, broken);
      const past = new Date("2020-01-02T03:04:05Z");
      utimesSync(file, past, past);
      const before = readFileSync(file);
      const listed = await listEntries(sb.paths);
      const store = listed.stores.find((s) => s.path === file);
      expect(store?.valid).toBe(false);
      // By id alone, by the version listed before the break, by the broken file's version, and as a dry run.
      for (const attempt of [
        { id: target.id },
        { id: target.id, expectedVersion: target.store.version },
        { id: target.id, expectedVersion: store!.version },
        { id: target.id, dryRun: true },
      ])
        await expect(revokeEntry({ ...sb.paths, ...attempt })).rejects.toMatchObject({
          details: { kind: expect.any(String) },
        });
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(statSync(file).mtimeMs).toBe(past.getTime());
      expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    },
  );

  it("preserves the file mode", async () => {
    const abs = sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    chmodSync(abs, 0o600);
    await revoke(await entry(() => true));
    expect(statSync(abs).mode & 0o777).toBe(0o600);
  });

  it("revokes session entries through the source", async () => {
    const source = memorySessionSource([
      { id: "r1", agentSessionId: "s", agent: "claude-code", action: "allow", rule: "Bash(make)", createdAt: "" },
    ]);
    const result = await revokeEntry({ ...sb.paths, id: "session:r1", sessionSource: source });
    expect(result).toMatchObject({ store: "database", scope: "session" });
    expect(source.rows).toEqual([]);
    await expect(revokeEntry({ ...sb.paths, id: "session:r1", sessionSource: source })).rejects.toBeInstanceOf(
      EntryNotFoundError,
    );
  });
});
