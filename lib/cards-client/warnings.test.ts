import { describe, expect, it } from "vitest";
import { humanizeTimes, warningBanner } from "./warnings";

describe("warningBanner", () => {
  it.each([
    ["dangerous command", "danger", "Dangerous command"],
    ["root/home delete", "danger", "Deletes the root or home folder"],
    ["unsupported shell syntax", "warn", "Unsupported shell syntax"],
    ["something new", "warn", "Something new"],
  ])("%s", (w, tone, title) => {
    expect(warningBanner(w)).toMatchObject({ tone, title });
  });
});

describe("humanizeTimes", () => {
  it("formats every timestamp in a message", () => {
    expect(humanizeTimes("already settled by owner at 2026-12-02T14:02:00.000Z", () => "14:02")).toBe(
      "already settled by owner at 14:02",
    );
    expect(humanizeTimes("the card changed; reload", () => "x")).toBe("the card changed; reload");
  });
});
