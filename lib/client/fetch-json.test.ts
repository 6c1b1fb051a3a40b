import { describe, expect, it } from "vitest";
import { readError } from "./fetch-json";

describe("readError", () => {
  it("reads the error field, or names the status", async () => {
    expect(await readError(new Response(JSON.stringify({ error: "no" }), { status: 400 }))).toBe("no");
    expect(await readError(new Response("oops", { status: 502 }))).toBe("request failed (502)");
  });
});
