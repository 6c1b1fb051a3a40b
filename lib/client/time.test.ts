import { describe, expect, it } from "vitest";
import { formatTime, relativeAge } from "./time";

const now = new Date(2026, 2, 3, 14, 30);
const at = (d: Date) => d.toISOString();

describe("one date format", () => {
  it("today: the time; this year: day and month; earlier: with the year", () => {
    expect(formatTime(at(new Date(2026, 2, 3, 14, 2)), now)).toBe("14:02");
    expect(formatTime(at(new Date(2026, 0, 9, 8, 5)), now)).toBe("9 Jan 08:05");
    expect(formatTime(at(new Date(2025, 11, 24, 23, 59)), now)).toBe("24 Dec 2025 23:59");
  });
  it("relative ages for how long a request has waited", () => {
    expect(relativeAge(at(new Date(2026, 2, 3, 14, 29, 50)), now)).toBe("just now");
    expect(relativeAge(at(new Date(2026, 2, 3, 14, 27)), now)).toBe("3 min ago");
    expect(relativeAge(at(new Date(2026, 2, 3, 11, 30)), now)).toBe("3 h ago");
    expect(relativeAge(at(new Date(2026, 2, 2, 12, 0)), now)).toBe("yesterday");
    expect(relativeAge(at(new Date(2026, 1, 20, 9, 0)), now)).toBe("20 Feb 09:00");
  });
});
