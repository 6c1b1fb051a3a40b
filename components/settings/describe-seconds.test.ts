import { describe, expect, it } from "vitest";
import { describeSeconds } from "./describe-seconds";

describe("describeSeconds", () => {
  it.each([
    [30, "30 s"],
    [60, "1 min"],
    [90, "1 min 30 s"],
    [3600, "1 h"],
    [9000, "2 h 30 min"],
  ])("%d", (s, text) => expect(describeSeconds(s)).toBe(text));
});
