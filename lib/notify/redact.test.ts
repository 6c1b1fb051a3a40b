import { describe, expect, it } from "vitest";
import { redactResponse } from "./redact";

describe("redactResponse", () => {
  it("removes action tokens, their URLs, Authorization values and the request's own secrets", () => {
    const token = `cna_${"Ab9_-".repeat(8)}`;
    const echoed = [
      JSON.stringify({
        actions: [
          { url: `https://c.example/api/v1/notify/actions/${token}`, headers: { Authorization: `Bearer ${token}` } },
        ],
      }),
      `{"click":"https:\\/\\/c.example\\/api\\/v1\\/notify\\/actions\\/${token}"}`,
      "Authorization: Basic dXNlcjpwYXNz",
      "proxy-authorization=Token abcdef123456",
      "whsec_supersecretvalue appears here",
    ].join("\n");
    const out = redactResponse(echoed, ["whsec_supersecretvalue", null]);
    expect(out).not.toContain(token.slice(4));
    expect(out).not.toMatch(/api\\?\/v1\\?\/notify\\?\/actions/);
    expect(out).not.toContain("dXNlcjpwYXNz");
    expect(out).not.toContain("abcdef123456");
    expect(out).not.toContain("whsec_supersecretvalue");
    expect(out).toContain("[redacted");
  });

  it("leaves ordinary text alone", () => {
    expect(redactResponse('{"id":"n1","topic":"approvals","message":"git push"}')).toBe(
      '{"id":"n1","topic":"approvals","message":"git push"}',
    );
  });
});
