import { describe, expect, it } from "vitest";
import { jsonTooDeep, readBodyText } from "./body";

describe("jsonTooDeep", () => {
  it.each([
    ["[]", 1, false],
    ["[[]]", 1, true],
    ['{"a":{"b":[1]}}', 3, false],
    ['{"a":{"b":[1]}}', 2, true],
    ['["[[[[", "\\"[[[["]', 1, false],
    ['{"k\\\\":[[1]]}', 2, true],
  ])("%s with max %i → %s", (text, max, expected) => {
    expect(jsonTooDeep(text, max)).toBe(expected);
  });
});

describe("readBodyText", () => {
  it("reads a body within the limit and refuses one past it, by header or by bytes", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      new Request("http://x/", { method: "POST", body, headers });
    expect(await readBodyText(post("héllo"), 6)).toEqual({ ok: true, text: "héllo" });
    expect(await readBodyText(post("héllo!"), 6)).toMatchObject({ ok: false, status: 413 });
    expect(await readBodyText(post("hi", { "content-length": "99999" }), 10)).toMatchObject({ status: 413 });
  });
});
