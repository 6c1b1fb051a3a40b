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
  it("has safe limits by default and names bad ones", () => {
    const env = loadEnv({});
    expect(env.COCKPIT_HOST).toBe("127.0.0.1");
    expect(env.COCKPIT_MAX_STORE_BYTES).toBe(1024 * 1024);
    expect(env.COCKPIT_MAX_PENDING_PER_TOKEN).toBe(200);
    expect(env.COCKPIT_ADMISSIONS_PER_MINUTE).toBe(60);
    expect(env.COCKPIT_ADMISSION_BURST).toBe(30);
    expect(loadEnv({ COCKPIT_MAX_STORE_BYTES: "2048" }).COCKPIT_MAX_STORE_BYTES).toBe(2048);
    expect(() => loadEnv({ COCKPIT_MAX_STORE_BYTES: "lots" })).toThrow(/COCKPIT_MAX_STORE_BYTES/);
    expect(() => loadEnv({ COCKPIT_HOST: "a b" })).toThrow(/COCKPIT_HOST/);
  });
});
