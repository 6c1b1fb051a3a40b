import { describe, expect, it } from "vitest";
import { csrfRefusal } from "./csrf";

const url = "http://localhost:3000/api/v1/workspaces";
const h = (init: Record<string, string>) => new Headers({ host: "localhost:3000", ...init });

describe("csrfRefusal", () => {
  it.each([
    ["GET without headers", "GET", {}, null],
    ["same-origin POST", "POST", { origin: "http://localhost:3000", "sec-fetch-site": "same-origin" }, null],
    ["POST with matching Origin only", "POST", { origin: "http://localhost:3000" }, null],
    [
      "cross-site fetch metadata",
      "POST",
      { origin: "http://localhost:3000", "sec-fetch-site": "cross-site" },
      "Sec-Fetch-Site",
    ],
    ["same-site is not same-origin", "DELETE", { "sec-fetch-site": "same-site" }, "Sec-Fetch-Site"],
    ["foreign Origin", "POST", { origin: "https://evil.example" }, "Origin"],
    ["no Origin, no metadata", "POST", {}, "no Origin"],
    ["null Origin", "POST", { origin: "null" }, "Origin"],
  ] as const)("%s", (_name, method, headers, expected) => {
    const refusal = csrfRefusal(method, h(headers), url);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toContain(expected);
  });
  it("honours X-Forwarded-Host/Proto behind a proxy", () => {
    const headers = h({
      origin: "https://cockpit.example",
      "x-forwarded-host": "cockpit.example",
      "x-forwarded-proto": "https",
    });
    expect(csrfRefusal("POST", headers, url)).toBeNull();
  });
  it("accepts the COCKPIT_PUBLIC_URL origin (a proxy that rewrites Host) and nothing else", () => {
    const headers = h({ origin: "https://cockpit.example" });
    expect(csrfRefusal("POST", headers, url)).toContain("Origin");
    expect(csrfRefusal("POST", headers, url, "https://cockpit.example")).toBeNull();
    expect(csrfRefusal("POST", h({ origin: "https://evil.example" }), url, "https://cockpit.example")).toContain(
      "Origin",
    );
  });
});
