import { describe, expect, it } from "vitest";
import { isTypingTarget, shortcutFor, type KeyLike } from "./shortcuts";
import { cardSubject } from "./subject";
import { titleWithCount } from "./use-pending-count";

const key = (k: string, over: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: { tagName: "BODY" },
  ...over,
});

describe("shortcutFor", () => {
  it.each([
    [key("a"), "allow"],
    [key("A", { shiftKey: true }), "always"],
    [key("d"), "deny"],
    [key("s"), "session"],
    [key("j"), "next"],
    [key("k"), "previous"],
    [key("x"), null],
    [key("a", { ctrlKey: true }), null],
    [key("d", { metaKey: true }), null],
    [key("a", { target: { tagName: "TEXTAREA" } }), null],
    [key("a", { target: { tagName: "INPUT", type: "text" } }), null],
    [key("a", { target: { tagName: "INPUT", type: "checkbox" } }), "allow"],
    [key("d", { target: { tagName: "DIV", isContentEditable: true } }), null],
  ])("%o → %s", (k, action) => {
    expect(shortcutFor(k)).toBe(action);
  });
  it("buttons are not typing targets", () => {
    expect(isTypingTarget({ tagName: "BUTTON" })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe("cardSubject", () => {
  it.each([
    ["Bash", { command: "rm -rf build", description: "clean" }, "Command", "rm -rf build", ["Description"]],
    ["Write", { file_path: "/a/b.ts", content: "x" }, "File", "/a/b.ts", ["New content"]],
    ["Edit", { file_path: "/a/b.ts", old_string: "a", new_string: "b" }, "File", "/a/b.ts", ["Replace", "With"]],
    ["WebFetch", { url: "https://x.dev", prompt: "read" }, "URL", "https://x.dev", ["Prompt"]],
    ["Grep", { pattern: "deprecated" }, "Pattern", "deprecated", []],
  ])("%s", (tool, input, label, text, extras) => {
    const s = cardSubject({ tool, input });
    expect([s.label, s.text, s.extras.map((e) => e.label)]).toEqual([label, text, extras]);
  });
  it("falls back to the whole input as JSON", () => {
    expect(cardSubject({ tool: "mcp__x__y", input: { a: 1 } })).toEqual({
      label: "Input",
      text: '{\n  "a": 1\n}',
      extras: [],
    });
  });
});

describe("titleWithCount", () => {
  it.each([
    ["Cards · Permissions Cockpit", 3, "(3) Cards · Permissions Cockpit"],
    ["(3) Cards · Permissions Cockpit", 4, "(4) Cards · Permissions Cockpit"],
    ["(3) Cards · Permissions Cockpit", 0, "Cards · Permissions Cockpit"],
    ["Settings · Permissions Cockpit", 0, "Settings · Permissions Cockpit"],
  ])("%s + %d", (title, n, expected) => {
    expect(titleWithCount(title, n)).toBe(expected);
  });
});
