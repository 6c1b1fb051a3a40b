/** Keyboard actions on the head card of the Cards page. */
export type ShortcutAction = "allow" | "deny" | "session" | "always" | "next" | "previous";

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: unknown;
}

/** True while the person types: shortcuts must never eat letters meant for a field. */
export function isTypingTarget(target: unknown): boolean {
  if (!target || typeof target !== "object") return false;
  const el = target as { tagName?: string; isContentEditable?: boolean; type?: string };
  if (el.isContentEditable) return true;
  const tag = el.tagName?.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT")
    return !["button", "submit", "checkbox", "radio", "reset"].includes((el.type ?? "text").toLowerCase());
  return false;
}

export function shortcutFor(e: KeyLike): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return null;
  switch (e.key) {
    case "a":
      return e.shiftKey ? null : "allow";
    case "A":
      return e.shiftKey ? "always" : null;
    case "d":
      return "deny";
    case "s":
      return "session";
    case "j":
      return "next";
    case "k":
      return "previous";
    default:
      return null;
  }
}
