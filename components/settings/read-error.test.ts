import { describe, expect, it } from "vitest";
import { describeSeconds, readError } from "./read-error";

describe("describeSeconds", () => {
  it.each([
    [30, "30 s"],
    [60, "1 min"],
    [90, "1 min 30 s"],
    [3600, "1 h"],
    [9000, "2 h 30 min"],
  ])("%d", (s, text) => expect(describeSeconds(s)).toBe(text));
});

describe("readError", () => {
  it("reads the error field, or names the status", async () => {
    expect(await readError(new Response(JSON.stringify({ error: "no" }), { status: 400 }))).toBe("no");
    expect(await readError(new Response("oops", { status: 502 }))).toBe("request failed (502)");
  });
});
