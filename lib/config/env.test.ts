import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "./env";

describe("loadEnv", () => {
  it("applies defaults", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.dataDir.endsWith(".cockpit")).toBe(true);
  });
  it("names the bad variable", () => {
    expect(() => loadEnv({ PORT: "abc" })).toThrow(EnvError);
    expect(() => loadEnv({ PORT: "abc" })).toThrow(/PORT/);
    expect(() => loadEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
  });
  it("accepts a postgres URL", () => {
    expect(loadEnv({ DATABASE_URL: "postgres://u@127.0.0.1:5432/db" }).DATABASE_URL).toContain("postgres://");
  });
  it("COCKPIT_TRUST_PROXY is off unless set to 1, and refuses other values", () => {
    expect(loadEnv({}).COCKPIT_TRUST_PROXY).toBe(false);
    expect(loadEnv({ COCKPIT_TRUST_PROXY: "1" }).COCKPIT_TRUST_PROXY).toBe(true);
    expect(() => loadEnv({ COCKPIT_TRUST_PROXY: "yes" })).toThrow(/COCKPIT_TRUST_PROXY/);
  });
});
