import { describe, expect, it } from "vitest";
import { foldInput } from "./fold-input";

describe("foldInput", () => {
  it("keeps small inputs whole", () => {
    const input = { command: "git status", nested: { list: [1, "two", null] } };
    expect(foldInput(input)).toEqual({ input, omitted: 0 });
  });

  it("folds a huge string to its head and says how much is left out", () => {
    const { input, omitted } = foldInput({ file_path: "/x", content: "a".repeat(900_000) });
    expect(omitted).toBe(900_000 - 2_000);
    expect(input.file_path).toBe("/x");
    expect(input.content).toBe("a".repeat(2_000) + "… (898000 more characters)");
  });

  it("bounds the whole preview: many strings, many items, deep nesting", () => {
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, "b".repeat(10_000)]));
    const long = Array.from({ length: 10_000 }, (_, i) => `item ${i} ${"c".repeat(500)}`);
    let deep: unknown = "bottom";
    for (let i = 0; i < 1_000; i++) deep = [deep];
    for (const input of [wide, { long }, { deep }]) {
      const folded = foldInput(input);
      expect(folded.omitted).toBeGreaterThan(0);
      expect(JSON.stringify(folded.input).length).toBeLessThan(12_000);
    }
  });
});
