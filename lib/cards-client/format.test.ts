import { describe, expect, it } from "vitest";
import type { CardView } from "@/lib/cards/view";
import {
  describeCause,
  describeSettlement,
  formatTime,
  settlementTitle,
  storeFilePath,
  timeLeft,
  conflictText,
} from "./format";
import { testCard } from "@/test/support/card-view";

const at = "2026-12-02T14:02:00.000Z";
const now = new Date(at);
const settled = (status: CardView["status"], s: Partial<NonNullable<CardView["settlement"]>> = {}) =>
  testCard({
    status,
    settlement: {
      outcome: "allow",
      remember: "once",
      message: null,
      by: "owner",
      via: "web",
      at,
      source: "user",
      ...s,
    },
  });

describe("describeSettlement", () => {
  const time = formatTime(at, now);
  it.each([
    [settled("allowed"), `Allowed once · by owner at ${time} via web`],
    [settled("allowed", { remember: "session" }), `Allowed for this session · by owner at ${time} via web`],
    [settled("allowed", { remember: "workspace", via: "ntfy" }), `Always allowed · by owner at ${time} via ntfy`],
    [settled("denied", { outcome: "deny", message: "use pnpm" }), `Denied with feedback · by owner at ${time} via web`],
    [
      settled("denied", { outcome: "deny", source: "recheck", by: "alice" }),
      `Denied by a rule added meanwhile · by alice at ${time} via web`,
    ],
    [
      settled("expired", { outcome: "deny", source: "expired", by: "system", via: "system" }),
      `Expired: nobody answered · at ${time}`,
    ],
    [
      settled("aborted", { outcome: "deny", source: "abort", by: "agent", via: "agent" }),
      `Answered elsewhere (in the terminal) · at ${time}`,
    ],
    [settled("coalesced", { source: "policy", by: "system" }), `Allowed by a rule · at ${time}`],
    // Names show the role: no chosen name can pass for the owner or the CLI.
    [settled("allowed", { by: "Ada", role: "approver" }), `Allowed once · by Ada (approver) at ${time} via web`],
    [settled("allowed", { by: "owner", role: "owner" }), `Allowed once · by owner (owner) at ${time} via web`],
  ])("%#", (card, text) => {
    expect(describeSettlement(card, { now })).toBe(text);
  });

  it("says 'you' for the viewer's own answer", () => {
    expect(describeSettlement(settled("allowed"), { me: "owner", now })).toBe(
      `Allowed once · by you at ${time} via web`,
    );
  });

  it("a pending card is waiting", () => {
    expect(settlementTitle(testCard())).toBe("Waiting for an answer");
    expect(describeSettlement(testCard())).toBe("Waiting for an answer");
  });
});

describe("formatting", () => {
  it("shows a date for another day", () => {
    expect(formatTime(at, new Date("2026-12-05T10:00:00Z"))).toMatch(/^2 Dec \d\d:\d\d$/);
    expect(formatTime(at, now)).toMatch(/^\d\d:\d\d$/);
  });
  it("explains causes and keeps unknown ones", () => {
    expect(describeCause("resource-boundary")).toBe("it reaches outside the workspace");
    expect(describeCause("something-new")).toBe("something-new");
  });
  it.each([
    [30_000, "in 30 s"],
    [5 * 60_000, "in 5 min"],
    [3 * 3600_000, "in 3 h"],
    [-1000, "now"],
  ])("time left %d ms", (ms, text) => {
    expect(timeLeft(new Date(now.getTime() + ms).toISOString(), now)).toBe(text);
  });
});

describe("storeFilePath", () => {
  it.each([
    [".claude/settings.local.json", "/home/me/app/.claude/settings.local.json"],
    ["/etc/claude/managed.json", "/etc/claude/managed.json"],
    ["~/.claude/settings.json", "~/.claude/settings.json"],
    [null, null],
  ])("%s", (store, full) => {
    expect(storeFilePath(testCard({ remember: { session: [], workspace: ["Bash(x)"], workspaceStore: store } }))).toBe(
      full,
    );
  });
});

describe("conflictText", () => {
  const time = formatTime(at, now);
  it("names the winner and what they answered", () => {
    expect(conflictText("already settled by alice at " + at, settled("allowed"), { me: "bob", now })).toBe(
      `Not answered: already settled by owner at ${time} — Allowed once`,
    );
    expect(conflictText("x", settled("denied", { outcome: "deny" }), { me: "owner", now })).toBe(
      `Not answered: already settled by you (another tab or device) at ${time} — Denied`,
    );
  });
  it("keeps the server's reason for expiry, aborts and changed cards", () => {
    expect(
      conflictText(
        `the request expired at ${at} (the user may have been away); nothing was granted`,
        settled("expired", { source: "expired" }),
        { now },
      ),
    ).toBe(`Not answered: the request expired at ${time} (the user may have been away); nothing was granted`);
    expect(conflictText("the card changed; reload", testCard(), { now })).toBe(
      "Not answered: the card changed; reload",
    );
  });
});
