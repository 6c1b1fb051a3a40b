import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreChangedError, InvalidInputError, NarrowingRefusedError } from "@/lib/errors";
import { listEntries } from "./list-entries";
import { narrowEntry, previewNarrowing } from "./narrow-entry";
import { suggestNarrowings } from "./suggest-narrowings";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";
import type { Entry } from "./types";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

async function entry(predicate: (e: Entry) => boolean): Promise<Entry> {
  const hit = (await listEntries(sb.paths)).entries.find(predicate);
  if (!hit) throw new Error("fixture entry not found");
  return hit;
}
const narrow = (e: Entry, to: string) => narrowEntry({ ...sb.paths, id: e.id, expectedVersion: e.store.version, to });

describe("narrowEntry: JSON rules", () => {
  const file = ".commandcode/settings.json";
  beforeEach(() => {
    sb.write(file, FIXTURES.commandcodeJsonc);
  });

  it.each([
    ["Shell(git:*)", "Shell(git status:*)"],
    ["Edit(src/**)", "Edit(src/lib/**)"],
    ["mcp__github__*", "mcp__github__get_*"],
  ])("%s → %s in place, byte-exact", async (from, to) => {
    const result = await narrow(await entry((e) => e.rule === from), to);
    expect(sb.read(file)).toBe(FIXTURES.commandcodeJsonc.replace(JSON.stringify(from), JSON.stringify(to)));
    expect(result.before.text).toContain(from);
    expect(result.after.text).toContain(to);
    expect(result.after.line).toBe(result.before.line);
  });

  it("allow → ask moves the rule to the ask list", async () => {
    await narrow(await entry((e) => e.rule === "Edit(src/**)"), "ask");
    const after = await listEntries(sb.paths);
    expect(after.entries.filter((e) => e.agent === "commandcode").map((e) => [e.action, e.rule])).toEqual([
      ["allow", "Shell(git:*)"],
      ["allow", "mcp__github__*"],
      ["ask", "Edit(src/**)"],
      ["deny", "Shell(rm -rf *)"],
    ]);
    expect(sb.read(file)).toContain("// everything git");
    expect(sb.read(file)).toContain("/* rules */");
  });

  it("refuses a broader rule with the engine's reason and writes nothing", async () => {
    const target = await entry((e) => e.rule === "Shell(git:*)");
    await expect(narrow(target, "Shell(*)")).rejects.toBeInstanceOf(NarrowingRefusedError);
    await expect(narrow(target, "Shell(*)")).rejects.toThrow(/^cannot prove narrower: /);
    await expect(narrow(target, "Shell(npm:*)")).rejects.toThrow(/cannot prove narrower/);
    const deny = await entry((e) => e.rule === "Shell(rm -rf *)");
    await expect(narrow(deny, "allow")).rejects.toThrow(/loosens/);
    expect(sb.read(file)).toBe(FIXTURES.commandcodeJsonc);
  });

  it("rejects a malformed SPEC and a stale version", async () => {
    const target = await entry((e) => e.rule === "Shell(git:*)");
    await expect(narrow(target, "Shell(git")).rejects.toBeInstanceOf(InvalidInputError);
    sb.write(file, FIXTURES.commandcodeJsonc + "\n");
    await expect(narrow(target, "Shell(git status:*)")).rejects.toBeInstanceOf(StoreChangedError);
  });

  it("previews without writing", async () => {
    const target = await entry((e) => e.rule === "Shell(git:*)");
    expect(await previewNarrowing({ ...sb.paths, id: target.id, to: "Shell(git log:*)" })).toEqual({
      proved: true,
      to: "Shell(git log:*)",
    });
    const refused = await previewNarrowing({ ...sb.paths, id: target.id, to: "Shell(*)" });
    expect(refused.proved).toBe(false);
    expect(sb.read(file)).toBe(FIXTURES.commandcodeJsonc);
  });
});

describe("narrowEntry: mevedel rules, grants and profiles", () => {
  const file = ".mevedel/permissions.el";
  beforeEach(() => {
    sb.write(file, FIXTURES.mevedel);
  });

  it.each([
    [
      "grant recursive → exact",
      (e: Entry) => e.rule.includes("/srv/data"),
      "exact",
      ['/srv/data" :access write :recursive t)', '/srv/data" :access write)'],
    ],
    [
      "grant write → read",
      (e: Entry) => e.rule.includes("/srv/data"),
      "read",
      [":access write :recursive t)))", ":access read :recursive t)))"],
    ],
    [
      "grant to a descendant",
      (e: Entry) => e.rule.includes("/srv/data"),
      "path:/srv/data/cache",
      ['(:path "/srv/data"', '(:path "/srv/data/cache"'],
    ],
    [
      "rule pattern",
      (e: Entry) => e.rule.includes("git log*"),
      'pattern:"git log --oneline*"',
      ['"git log*"', '"git log --oneline*"'],
    ],
    [
      "rule allow → ask",
      (e: Entry) => e.rule.includes("git log*"),
      "ask",
      ['"git log*" :action allow', '"git log*" :action ask'],
    ],
    ["profile network off", (e: Entry) => e.kind === "profile", "network:off", ["\n   :network t\n", "\n"]],
    [
      "profile child dropped",
      (e: Entry) => e.kind === "profile",
      "drop-fs:/usr/share/emacs",
      [
        '((:path "~/.npm" :access write :recursive t)\n                 (:path "/usr/share/emacs" :access read :recursive t))',
        '((:path "~/.npm" :access write :recursive t))',
      ],
    ],
    [
      "profile child write → read",
      (e: Entry) => e.kind === "profile",
      "fs-read:~/.npm",
      ['"~/.npm" :access write', '"~/.npm" :access read'],
    ],
  ] as const)("%s", async (_name, pick, spec, [from, to]) => {
    const result = await narrow(await entry(pick), spec.replace("HOME", sb.home));
    expect(sb.read(file)).toBe(FIXTURES.mevedel.replace(from, to));
    expect(result.after.version).not.toBe(result.before.version);
  });

  it("refuses broadening and reports why", async () => {
    const grant = await entry((e) => e.rule.includes("~/notes"));
    await expect(narrow(grant, "path:/")).rejects.toThrow(/cannot prove narrower/);
    const rule = await entry((e) => e.rule.includes("git log*"));
    await expect(narrow(rule, 'pattern:"git *"')).rejects.toThrow(/cannot prove narrower/);
    await expect(narrow(rule, "exact")).rejects.toBeInstanceOf(InvalidInputError);
    await expect(narrow(grant, "exact")).rejects.toThrow(/already exact/);
    await expect(narrow(rule, '("Bash" :pattern #(x))')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(narrow(rule, "bogus:1")).rejects.toBeInstanceOf(InvalidInputError);
    expect(sb.read(file)).toBe(FIXTURES.mevedel);
  });

  it("writes a descendant under home as ~/…", async () => {
    sb.write(file, '(:rules nil :resource-grants ((:path "~/cache" :access write :recursive t)))');
    await narrow(await entry((e) => e.kind === "grant"), `path:${sb.home}/cache/npm`);
    expect(sb.read(file)).toBe('(:rules nil :resource-grants ((:path "~/cache/npm" :access write :recursive t)))');
  });

  it("accepts a whole replacement form", async () => {
    const rule = await entry((e) => e.rule.includes("git log*"));
    await narrow(rule, '("Bash" :pattern "git log -1*" :action allow)');
    expect(sb.read(file)).toBe(
      FIXTURES.mevedel.replace(
        '("Bash" :pattern "git log*" :action allow)',
        '("Bash" :pattern "git log -1*" :action allow)',
      ),
    );
  });
});

describe("suggestNarrowings", () => {
  it("offers sub-commands, sub-folders, stricter actions and profile cuts", async () => {
    sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
    sb.write(".mevedel/permissions.el", FIXTURES.mevedel);
    const { entries } = await listEntries(sb.paths);
    const listDir = (abs: string) => (abs.endsWith("src") ? ["lib", "app"] : abs.endsWith("data") ? ["cache"] : []);
    const opts = { listDir, workspace: sb.workspace, home: sb.home };
    const get = (p: (e: Entry) => boolean) => suggestNarrowings(entries.find(p)!, opts);
    expect(get((e) => e.rule === "Shell(git:*)")).toEqual(
      expect.arrayContaining(["ask", "Shell(git status:*)", "Shell(git log:*)", "Shell(git diff:*)"]),
    );
    expect(get((e) => e.rule === "Edit(src/**)")).toEqual(
      expect.arrayContaining(["Edit(src/app/**)", "Edit(src/lib/**)"]),
    );
    expect(get((e) => e.rule === "mcp__github__*")).toContain("mcp__github__get_*");
    expect(get((e) => e.rule.includes("/srv/data"))).toEqual(["exact", "read", "path:/srv/data/cache"]);
    expect(get((e) => e.kind === "profile")).toEqual(
      expect.arrayContaining(["network:off", "drop-fs:~/.npm", "fs-exact:~/.npm", "fs-read:~/.npm"]),
    );
    expect(get((e) => e.action === "ask" && e.agent === "mevedel")).toContain("deny");

    // Every suggestion for the JSON rules is proved narrower by the engine.
    for (const e of entries.filter((x) => x.agent === "commandcode" && x.action === "allow")) {
      for (const to of suggestNarrowings(e, opts)) {
        const preview = await previewNarrowing({ ...sb.paths, id: e.id, to });
        expect(preview, `${e.rule} → ${to}`).toMatchObject({ proved: true });
      }
    }
  });
});
