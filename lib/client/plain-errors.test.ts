import { describe, expect, it } from "vitest";
import { plainError } from "./plain-errors";

describe("sign-in and passkey errors in plain words", () => {
  it.each([
    [
      "NotAllowedError: The operation either timed out or was not allowed. See: https://www.w3.org/TR/webauthn-2/#sctn-privacy-considerations-client.",
      /closed or timed out/,
    ],
    ["InvalidStateError: The authenticator was previously registered", /already registered/],
    ["SecurityError: This is an invalid domain.", /do not work at this address/],
    ["Invalid input: expected string, received undefined", /not in the expected form/],
    ["this login link is invalid, expired or already used", /^this login link is invalid, expired or already used$/],
  ])("%s", (raw, want) => expect(plainError(raw)).toMatch(want));
  it("says when the server did not answer or throttles", () => {
    expect(plainError("x", 0)).toMatch(/could not be reached/);
    expect(plainError("x", 429)).toMatch(/Too many attempts/);
  });
});
