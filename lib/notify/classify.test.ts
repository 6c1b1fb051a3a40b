import { describe, expect, it } from "vitest";
import { classifyStatus, nextDelayMs, retryAfterMs } from "./classify";
import { RETRY_SCHEDULE_SECONDS } from "./notify-env";

describe("retry policy", () => {
  it.each([
    [200, "delivered"],
    [204, "delivered"],
    [301, "give-up"],
    [302, "give-up"],
    [400, "give-up"],
    [401, "give-up"],
    [404, "give-up"],
    [408, "retry"],
    [410, "gone"],
    [429, "retry"],
    [500, "retry"],
    [502, "retry"],
    [503, "retry"],
    [504, "retry"],
  ])("HTTP %i → %s", (status, kind) => {
    expect(classifyStatus(status, {}, 0).kind).toBe(kind);
  });

  it("follows the Standard Webhooks schedule with ±10 % jitter and stops after ten attempts", () => {
    expect(RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    RETRY_SCHEDULE_SECONDS.forEach((seconds, i) => {
      expect(nextDelayMs(i + 1, RETRY_SCHEDULE_SECONDS, () => 0)).toBe(seconds * 900);
      expect(nextDelayMs(i + 1, RETRY_SCHEDULE_SECONDS, () => 1)).toBe(seconds * 1100);
      expect(nextDelayMs(i + 1, RETRY_SCHEDULE_SECONDS, () => 0.5)).toBe(seconds * 1000);
    });
    expect(nextDelayMs(10, RETRY_SCHEDULE_SECONDS, () => 0.5)).toBeNull();
    const total = RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) / 3600;
    expect(total).toBeGreaterThan(75);
    expect(total).toBeLessThan(76);
  });

  it("honours Retry-After in seconds or as a date, when longer than the schedule, up to a day", () => {
    const now = Date.parse("2026-01-01T10:00:00Z");
    expect(retryAfterMs({ "retry-after": "120" }, now)).toBe(120_000);
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2026 10:05:00 GMT" }, now)).toBe(300_000);
    expect(retryAfterMs({ "retry-after": "999999" }, now)).toBe(86_400_000);
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(classifyStatus(503, { "retry-after": "60" }, now)).toEqual({ kind: "retry", minDelayMs: 60_000 });
    expect(nextDelayMs(1, [5], () => 0.5, 60_000)).toBe(60_000);
    expect(nextDelayMs(1, [500], () => 0.5, 60_000)).toBe(500_000);
  });
});
