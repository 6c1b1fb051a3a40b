/** Cursor hygiene over real cli.json files: deny beats allow, the deepest allow list counts. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cursorEntries } from "./entries";
import { loadCursorStores } from "./io/stores";
import { lintCursor } from "./lint";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cursor-lint-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function lint(files: Record<string, string>, cwd = "") {
  const dir = await mkdtemp(path.join(root, "t-"));
  const home = path.join(dir, "home");
  const ws = path.join(dir, "ws");
  await mkdir(path.join(ws, ".git"), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const file = rel === "global" ? path.join(home, ".cursor", "cli-config.json") : path.join(ws, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  const stores = await loadCursorStores({ home, workspace: ws, cwd: path.join(ws, cwd) });
  const entries = cursorEntries(stores);
  const text = (id?: string) => (id ? (entries.find((e) => e.id === id)?.rule ?? path.basename(id)) : undefined);
  return lintCursor(stores).map((f) => [f.kind, f.severity, text(f.entry), text(f.by)]);
}

const cli = (allow: string[], deny: string[] = []) => JSON.stringify({ permissions: { allow, deny } });

describe("cursor lint", () => {
  it("an allow a deny covers never allows; covered and duplicate entries change nothing", async () => {
    const f = await lint({
      ".cursor/cli.json": cli(
        ["Shell(rm:-rf build)", "Shell(git)", "Shell(git:status)", "Read(src/**)", "Read(src/**)"],
        ["Shell(rm)"],
      ),
    });
    expect(f).toEqual([
      ["shadowed", "warning", "Shell(rm:-rf build)", "Shell(rm)"],
      ["covered", "info", "Shell(git:status)", "Shell(git)"],
      ["duplicate", "info", "Read(src/**)", "Read(src/**)"],
    ]);
  });

  it("a broken file is an error; undocumented strings and set-aside allows are ineffective (inferred)", async () => {
    const f = await lint(
      {
        global: cli(["WebFetch(docs.github.com)"]),
        ".cursor/cli.json": cli(["Bash(ls)", "Shell(ls)"]),
        "pkg/.cursor/cli.json": "{ nope",
      },
      "pkg",
    );
    expect(f).toEqual([
      ["ineffective", "error", "cli.json", undefined],
      ["ineffective", "warning", "WebFetch(docs.github.com)", undefined],
      ["ineffective", "warning", "Bash(ls)", undefined],
    ]);
  });

  it("a project file with comments contributes no allow entries", async () => {
    const f = await lint({ ".cursor/cli.json": '{ // mine\n "permissions": { "allow": ["Shell(ls)"] } }' });
    expect(f).toEqual([["ineffective", "warning", "Shell(ls)", undefined]]);
  });
});
