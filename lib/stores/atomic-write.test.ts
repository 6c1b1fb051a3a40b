import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertNoSymlinks, sweepStaleTemps, writeAtomically } from "./atomic-write";
import { StoreChangedError, SymlinkRefusedError } from "@/lib/errors";
import { sha256 } from "./read-store";
import { makeSandbox, type Sandbox } from "@/test/support/stores";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("atomic-");
});
afterEach(() => sb.cleanup());

const OLD = '{"permissions":{"allow":["Bash(ls)"]}}\n';
const NEW = '{"permissions":{"allow":[]}}\n';

describe("writeAtomically", () => {
  it("replaces the file, returns the new version and leaves no temp or lock", async () => {
    const file = sb.write(".claude/settings.json", OLD);
    const { version } = await writeAtomically({ file, root: sb.workspace, expectedVersion: sha256(OLD), content: NEW });
    expect(readFileSync(file, "utf8")).toBe(NEW);
    expect(version).toBe(sha256(NEW));
    expect(readdirSync(path.dirname(file))).toEqual(["settings.json"]);
  });

  it("F3: an external edit between our read and the rename aborts the write; the edit survives", async () => {
    const file = sb.write(".claude/settings.json", OLD);
    const external = OLD.replace("ls", "ls -la");
    await expect(
      writeAtomically({
        file,
        root: sb.workspace,
        expectedVersion: sha256(OLD),
        content: NEW,
        beforeRename: async () => writeFileSync(file, external),
      }),
    ).rejects.toBeInstanceOf(StoreChangedError);
    expect(readFileSync(file, "utf8")).toBe(external);
    expect(readdirSync(path.dirname(file))).toEqual(["settings.json"]);
  });

  it("F5: the file swapped for a symlink before the rename is refused; the link target is untouched", async () => {
    const file = sb.write(".claude/settings.json", OLD);
    const secret = path.join(sb.root, "passwd");
    writeFileSync(secret, "root:x:0:0\n");
    await expect(
      writeAtomically({
        file,
        root: sb.workspace,
        expectedVersion: sha256(OLD),
        content: NEW,
        beforeRename: async () => {
          unlinkSync(file);
          symlinkSync(secret, file);
        },
      }),
    ).rejects.toBeInstanceOf(SymlinkRefusedError);
    expect(readFileSync(secret, "utf8")).toBe("root:x:0:0\n");
  });

  it("creates a missing file and folders only when the expected version is 'missing'", async () => {
    const file = sb.abs(".mevedel/permissions.el");
    await expect(
      writeAtomically({ file, root: sb.workspace, expectedVersion: sha256("x"), content: "()" }),
    ).rejects.toBeInstanceOf(StoreChangedError);
    await writeAtomically({ file, root: sb.workspace, expectedVersion: "missing", content: "(:rules nil)\n" });
    expect(readFileSync(file, "utf8")).toBe("(:rules nil)\n");
  });

  it("keeps the mode of the file it replaces", async () => {
    const file = sb.write("~/.claude/settings.json", OLD);
    const { chmodSync } = await import("node:fs");
    chmodSync(file, 0o640);
    await writeAtomically({ file, root: sb.home, expectedVersion: sha256(OLD), content: NEW });
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it("refuses paths outside the root and non-directory parents", async () => {
    await expect(assertNoSymlinks(sb.workspace, path.join(sb.root, "x.json"))).rejects.toBeInstanceOf(
      SymlinkRefusedError,
    );
    sb.write(".claude", "a file, not a folder");
    await expect(assertNoSymlinks(sb.workspace, sb.abs(".claude/settings.json"))).rejects.toThrow(/not a directory/);
  });

  it("serialises concurrent writers: of N racing writes from one version exactly one lands", async () => {
    const file = sb.write(".claude/settings.json", OLD);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, k) =>
        writeAtomically({ file, root: sb.workspace, expectedVersion: sha256(OLD), content: `${k}\n` }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      results
        .filter((r) => r.status === "rejected")
        .every((r) => (r as PromiseRejectedResult).reason instanceof StoreChangedError),
    ).toBe(true);
    expect(readFileSync(file, "utf8")).toMatch(/^\d\n$/);
  });
});

describe("sweepStaleTemps", () => {
  it("removes temps and locks of dead writers, keeps live ones and everything else", async () => {
    const dir = path.dirname(sb.write(".claude/settings.json", OLD));
    const dead = 2 ** 22 + 12345; // above the default pid_max: never a live process
    writeFileSync(path.join(dir, `.settings.json.cockpit-tmp-${dead}-abcdef`), "partial");
    writeFileSync(path.join(dir, ".settings.json.cockpit-lock"), `${dead} ${Date.now()}`);
    writeFileSync(path.join(dir, `.settings.json.cockpit-tmp-${process.pid}-123456`), "in flight");
    writeFileSync(path.join(dir, "notes.cockpit-tmp-1-1"), "not ours (no leading dot)");
    const removed = await sweepStaleTemps([dir, path.join(sb.root, "does-not-exist")]);
    expect(removed.map((p) => path.basename(p)).sort()).toEqual([
      ".settings.json.cockpit-lock",
      `.settings.json.cockpit-tmp-${dead}-abcdef`,
    ]);
    expect(readdirSync(dir).sort()).toEqual([
      `.settings.json.cockpit-tmp-${process.pid}-123456`,
      "notes.cockpit-tmp-1-1",
      "settings.json",
    ]);
  });

  it("a stale lock left by a dead writer does not block the next write", async () => {
    const file = sb.write(".claude/settings.json", OLD);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(path.join(path.dirname(file), ".settings.json.cockpit-lock"), `${2 ** 22 + 1} ${Date.now()}`);
    await writeAtomically({ file, root: sb.workspace, expectedVersion: sha256(OLD), content: NEW });
    expect(readFileSync(file, "utf8")).toBe(NEW);
  });
});
