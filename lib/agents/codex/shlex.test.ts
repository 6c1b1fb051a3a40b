/** shlex (Rust crate 1.3) splitting as Codex uses it for string `match` examples and hook commands. */
import { describe, expect, it } from "vitest";
import { shlexJoin, shlexSplit } from "./shlex";

describe("shlexSplit", () => {
  it.each([
    ["git fetch origin", ["git", "fetch", "origin"]],
    ["git --config color.status=always status", ["git", "--config", "color.status=always", "status"]],
    ["echo 'a b' \"c d\"", ["echo", "a b", "c d"]],
    ['echo "a\\"b" "x\\y"', ["echo", 'a"b', "x\\y"]],
    ["a\\ b", ["a b"]],
    ["ls # comment", ["ls"]],
    ["  ", []],
    ["''", [""]],
  ])("%s", (src, want) => expect(shlexSplit(src)).toEqual(want));
  it("rejects unterminated quotes and a trailing backslash", () => {
    expect(shlexSplit("echo 'x")).toBeUndefined();
    expect(shlexSplit('echo "x')).toBeUndefined();
    expect(shlexSplit("echo x\\")).toBeUndefined();
  });
});

describe("shlexJoin", () => {
  it("round-trips every argv", () => {
    for (const argv of [
      ["ls"],
      ["bash", "-lc", "rm -rf /some/important/folder"],
      ["echo", "it's", '"q"', "$HOME", ""],
      ["a\\b"],
    ])
      expect(shlexSplit(shlexJoin(argv))).toEqual(argv);
  });
  it("quotes like Codex's messages", () => {
    expect(shlexJoin(["bash", "-lc", "rm -rf /some/important/folder"])).toBe(
      "bash -lc 'rm -rf /some/important/folder'",
    );
  });
});
