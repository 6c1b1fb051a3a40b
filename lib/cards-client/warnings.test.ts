import { describe, expect, it } from "vitest";
import { cardSubject } from "./subject";
import { testCard } from "@/test/support/card-view";
import { displayCard, humanizeTimes, warningBanner } from "./warnings";

describe("warningBanner", () => {
  it.each([
    ["dangerous command", "danger", "Dangerous command"],
    ["root/home delete", "danger", "Deletes the root or home folder"],
    ["unsupported shell syntax", "warn", "Unsupported shell syntax"],
    ["something new", "warn", "Something new"],
  ])("%s", (w, tone, title) => {
    expect(warningBanner(w)).toMatchObject({ tone, title });
  });
});

describe("humanizeTimes", () => {
  it("formats every timestamp in a message", () => {
    expect(humanizeTimes("already settled by owner at 2026-12-02T14:02:00.000Z", () => "14:02")).toBe(
      "already settled by owner at 14:02",
    );
    expect(humanizeTimes("the card changed; reload", () => "x")).toBe("the card changed; reload");
  });
});

describe("displayCard: text that disguises itself", () => {
  it("shows hidden characters visibly in every agent-chosen field and adds the warning", () => {
    const card = testCard({
      input: { command: "echo ok \u202E#/ redda", "x\u200B": ["\u001b[2J"] },
      sessionId: "s\u001b]0;pwned\u0007",
      reason: "fine\u2066",
      cwd: "/w\u200D",
    });
    const shown = displayCard(card);
    expect(shown.input).toEqual({ command: "echo ok ⟨U+202E⟩#/ redda", "x⟨U+200B⟩": ["⟨ESC⟩[2J"] });
    expect(shown.sessionId).toBe("s⟨ESC⟩]0;pwned⟨BEL⟩");
    expect(shown.reason).toBe("fine⟨U+2066⟩");
    expect(shown.cwd).toBe("/w⟨U+200D⟩");
    expect(shown.warnings).toEqual(["hidden characters"]);
    expect(shown.hash).toBe(card.hash);
    expect(warningBanner("hidden characters")).toMatchObject({ tone: "danger", title: "Hidden characters" });
    // Stored warning is not doubled; a clean card is returned as is.
    expect(displayCard({ ...card, warnings: ["hidden characters"] }).warnings).toEqual(["hidden characters"]);
    const clean = testCard();
    expect(displayCard(clean)).toBe(clean);
  });

  it("names pipe-to-shell as dangerous", () => {
    expect(warningBanner("downloads and runs code")).toMatchObject({
      tone: "danger",
      title: "Downloads and runs code",
    });
  });
});

describe("cardSubject shows what the engine judged", () => {
  it("never shows a field the engine ignores as the command", () => {
    expect(cardSubject({ tool: "Bash", input: { cmd: "rm -rf ~" } }).label).toBe("Input");
    expect(cardSubject({ tool: "Read", input: { target_file: "/w/a" } })).toMatchObject({
      label: "File",
      text: "/w/a",
    });
  });
});
