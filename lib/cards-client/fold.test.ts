import { describe, expect, it } from "vitest";
import { describeHidden, foldText } from "./fold";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("foldText", () => {
  it.each([
    ["short text", "npm test", false],
    ["exactly head+tail+1 lines", lines(9), false],
    ["one line over", lines(10), true],
  ])("%s", (_, text, folded) => {
    expect(foldText(text).folded).toBe(folded);
  });

  it("keeps head and tail lines and counts what it hides", () => {
    const f = foldText(lines(40));
    expect(f.head).toBe(lines(5));
    expect(f.tail.split("\n")).toEqual(["line 38", "line 39", "line 40"]);
    expect(f.hiddenLines).toBe(32);
    expect(f.totalLines).toBe(40);
    expect(describeHidden(f)).toMatch(/^32 lines \(\d+ characters\) hidden$/);
  });

  it("folds one huge line by characters, keeping both ends", () => {
    const text = `echo start ${"x".repeat(5000)} end-marker`;
    const f = foldText(text, { maxChars: 200 });
    expect(f.folded).toBe(true);
    expect(f.head.startsWith("echo start")).toBe(true);
    expect(f.tail.endsWith("end-marker")).toBe(true);
    expect(f.head.length + f.tail.length + f.hiddenChars).toBe(text.length);
    expect(describeHidden(f)).toBe(`${(text.length - 200).toLocaleString("en-US")} characters hidden`);
  });

  it("caps very long head lines too", () => {
    const text = [`${"y".repeat(3000)}`, ...lines(20).split("\n")].join("\n");
    const f = foldText(text, { maxChars: 400 });
    expect(f.head.length).toBeLessThanOrEqual(200);
    expect(f.tail.endsWith("line 20")).toBe(true);
  });
});

describe("foldText line-aware clipping", () => {
  it("cuts long heads and tails at line breaks", () => {
    const text = Array.from({ length: 30 }, (_, i) => `step ${i} ${"z".repeat(80)}`).join("\n");
    const f = foldText(text, { maxChars: 600 });
    expect(f.head.split("\n").every((l) => /^step \d+ z{80}$/.test(l))).toBe(true);
    expect(f.tail.split("\n").every((l) => /^step \d+ z{80}$/.test(l))).toBe(true);
    expect(f.tail.endsWith(`step 29 ${"z".repeat(80)}`)).toBe(true);
  });
});
