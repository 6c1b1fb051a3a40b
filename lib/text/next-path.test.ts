import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath: only same-origin paths survive a sign-in", () => {
  it.each([
    ["/cards/3f0c", "/cards/3f0c"],
    ["/rules?workspace=w1&finding=over-broad", "/rules?workspace=w1&finding=over-broad"],
    ["/cards#top", "/cards#top"],
  ])("%s → %s", (raw, want) => expect(safeNextPath(raw)).toBe(want));

  it.each([
    "https://evil.example/cards",
    "//evil.example/cards",
    "/\\evil.example",
    "javascript:alert(1)",
    "cards",
    "/login?next=/cards",
    "/api/v1/cards",
    "/invite?token=x",
    "/cards\n/x",
    "",
    null,
  ])("%s → null", (raw) => expect(safeNextPath(raw)).toBeNull());
});
