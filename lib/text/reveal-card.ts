import { hiddenTextWarning, revealDeep, revealHidden } from "./reveal";

/** The agent-chosen texts of a card (lib/cards/view.ts's `CardView` and anything shaped like it). */
export interface RevealableCard {
  tool: string;
  input: Record<string, unknown>;
  reason: string | null;
  sessionId: string;
  rootSessionId: string;
  originPath: string;
  cwd: string | null;
  warnings: string[];
}

/**
 * The card as a person should see it: every agent-chosen text with hidden characters made visible, and the
 * "hidden characters" warning present whenever there were any. Id and hash stay, so answers are unchanged.
 */
export function displayCard<C extends RevealableCard>(card: C): C {
  const texts = [card.tool, card.input, card.reason, card.sessionId, card.rootSessionId, card.originPath, card.cwd];
  const hidden = hiddenTextWarning(texts);
  if (!hidden) return card;
  const opt = (v: string | null | undefined) => (typeof v === "string" ? revealHidden(v) : v);
  return {
    ...card,
    tool: revealHidden(card.tool),
    input: revealDeep(card.input).value,
    reason: opt(card.reason) as C["reason"],
    sessionId: revealHidden(card.sessionId),
    rootSessionId: revealHidden(card.rootSessionId),
    originPath: revealHidden(card.originPath),
    cwd: opt(card.cwd) as C["cwd"],
    warnings: card.warnings.includes(hidden) ? card.warnings : [...card.warnings, hidden],
  };
}
