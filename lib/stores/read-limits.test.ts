import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addEntry } from "./add-entry";
import { InvalidStoreError } from "@/lib/errors";
import { listEntries } from "./list-entries";
import { configureStoreReads, DEFAULT_STORE_READ_LIMITS, processDeadline, readStoreBytes } from "./read-store";
import { makeSandbox, type Sandbox } from "@/test/support/stores";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("read-limits-");
});
afterEach(() => {
  configureStoreReads(DEFAULT_STORE_READ_LIMITS);
  sb.cleanup();
});

const PLIST = ".mevedel/permissions.el";
const JSONC = ".commandcode/settings.json";

/** The booby traps a cloned repository can hold in place of a settings file. */
const traps: Array<[string, string, (file: string) => void, RegExp]> = [
  ["a symlink to /dev/zero", PLIST, (f) => symlinkSync("/dev/zero", f), /not a regular file: a character device/],
  ["a FIFO", JSONC, (f) => execFileSync("mkfifo", [f]), /not a regular file: a named pipe/],
  [
    "a 2 MiB file",
    JSONC,
    (f) => writeFileSync(f, `{"x":"${"a".repeat(2 * 1024 * 1024)}"}`),
    /larger than the store limit/,
  ],
  ["a directory", PLIST, (f) => mkdirSync(f), /path is a directory/],
];

describe("store reads are bounded", () => {
  it.each(traps)("%s is listed invalid with the reason and never written", async (_name, rel, make, reason) => {
    const file = sb.abs(rel);
    mkdirSync(path.dirname(file), { recursive: true });
    make(file);
    const before = lstatSync(file);
    // A read that blocked (a FIFO without a writer) or never ended (/dev/zero) would run into the test's timeout.
    const { stores, entries } = await listEntries(sb.paths);
    const store = stores.find((s) => s.path === file)!;
    expect(store.valid).toBe(false);
    expect(store.writable).toBe(false);
    expect(store.error).toMatch(reason);
    expect(entries.filter((e) => e.store.path === file)).toEqual([]);

    const agent = rel === PLIST ? "mevedel" : "commandcode";
    const rule = agent === "mevedel" ? '("Bash" :pattern "ls" :action allow)' : "Shell(ls)";
    const file_ = agent === "commandcode" ? "settings.json" : undefined;
    await expect(
      addEntry({ ...sb.paths, agent, scope: "workspace", action: "allow", rule, file: file_ }),
    ).rejects.toBeInstanceOf(InvalidStoreError);
    const after = lstatSync(file);
    expect([after.ino, after.mode, after.size]).toEqual([before.ino, before.mode, before.size]);
    if (before.isSymbolicLink()) expect(readlinkSync(file)).toBe("/dev/zero");
  });

  it("honours a configured size cap", async () => {
    const file = sb.write(
      ".claude/settings.json",
      JSON.stringify({ permissions: { allow: ["Bash(ls)"] }, x: "a".repeat(3000) }),
    );
    expect((await readStoreBytes(file)).decodeError).toBeUndefined();
    configureStoreReads({ maxBytes: 2048 });
    const read = await readStoreBytes(file);
    expect(read.decodeError).toMatch(/larger than the store limit \(\d+ bytes > 2048; COCKPIT_MAX_STORE_BYTES\)/);
    expect(read.version).toBe("unreadable");
  });

  it("a symlink to a regular file inside the limits still reads", async () => {
    const real = sb.write("real.json", '{"permissions":{"allow":["Bash(ls)"]}}');
    mkdirSync(sb.abs(".claude"));
    symlinkSync(real, sb.abs(".claude/settings.json"));
    const { entries, stores } = await listEntries({ ...sb.paths, agent: "claude-code" });
    expect(entries.map((e) => e.rule)).toEqual(["Bash(ls)"]);
    expect(stores.find((s) => s.path === sb.abs(".claude/settings.json"))?.writable).toBe(false);
  });

  it("FIFO stores in one workspace never delay listing another", async () => {
    const other = mkdtempSync(path.join(os.tmpdir(), "read-limits-other-"));
    try {
      writeFileSync(path.join(other, "x"), "");
      mkdirSync(path.join(other, ".claude"));
      writeFileSync(path.join(other, ".claude/settings.json"), '{"permissions":{"allow":["Bash(ls)"]}}');
      for (const rel of [JSONC, ".commandcode/settings.local.json", PLIST, ".claude/settings.json"]) {
        mkdirSync(path.dirname(sb.abs(rel)), { recursive: true });
        execFileSync("mkfifo", [sb.abs(rel)]);
      }
      // More concurrent FIFO reads than libuv has threads: blocking reads would starve every fs call.
      const hostile = Array.from({ length: 8 }, () => listEntries(sb.paths));
      // Blocking reads would hold every thread of libuv's pool, and this listing would never finish.
      const { entries } = await listEntries({ workspace: other, home: sb.home, managedSettingsPath: null });
      expect(entries.map((e) => e.rule)).toEqual(["Bash(ls)"]);
      for (const listing of await Promise.all(hostile))
        expect(listing.stores.filter((s) => !s.valid).map((s) => s.error)).toEqual(
          Array(4).fill("not a regular file: a named pipe (FIFO)"),
        );
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 10_000);
});

describe("the read deadline counts the process's own time", () => {
  /** Keeps the event loop busy for `ms`, as a large parse on a loaded server does. */
  const busy = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };

  it("a busy event loop does not use it up: a read answering after the lag still wins", async () => {
    const deadline = processDeadline(600, () => "expired");
    // 10 ms in, the loop is blocked for twice the budget; the read answers 100 ms after the block ends. A plain
    // 600 ms timer would fire the moment the block ends and report the store unreadable.
    setTimeout(() => busy(1_200), 10);
    const read = new Promise<string>((resolve) => setTimeout(() => resolve("read"), 1_310));
    expect(await Promise.race([read, deadline.promise])).toBe("read");
    deadline.cancel();
  });

  it("a read that never answers still ends after about the budget", async () => {
    const t = performance.now();
    const deadline = processDeadline(600, () => "expired");
    expect(await Promise.race([new Promise<string>(() => {}), deadline.promise])).toBe("expired");
    expect(performance.now() - t).toBeGreaterThanOrEqual(590);
  });
});
