import { describe, expect, it } from "vitest";
import { exposureWarning, isLoopbackHost, localUrl } from "./listen-address";

describe("listen address", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["::1", true],
    ["[::1]", true],
    ["localhost", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.20", false],
  ])("%s is loopback: %s", (host, loopback) => expect(isLoopbackHost(host)).toBe(loopback));

  it("reaches a wildcard bind through 127.0.0.1 and brackets IPv6", () => {
    expect(localUrl("127.0.0.1", 3000)).toBe("http://127.0.0.1:3000");
    expect(localUrl("0.0.0.0", 3000)).toBe("http://127.0.0.1:3000");
    expect(localUrl("::1", 3000)).toBe("http://[::1]:3000");
    expect(localUrl("192.168.1.20", 80)).toBe("http://192.168.1.20:80");
  });

  it("warns beyond loopback unless the public URL is https", () => {
    expect(exposureWarning("127.0.0.1", undefined)).toBeNull();
    expect(exposureWarning("0.0.0.0", undefined)).toMatch(/without an https COCKPIT_PUBLIC_URL/);
    expect(exposureWarning("0.0.0.0", "http://192.168.1.20:3000")).toMatch(/warning/);
    expect(exposureWarning("0.0.0.0", "https://cockpit.example")).toBeNull();
  });
});
