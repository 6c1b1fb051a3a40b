/**
 * Escaping for chat formats. Agent-chosen text (commands, reasons, workspace names, session paths) must never
 * turn into a ping, a link or formatting in a receiver's client.
 */

/** Slack mrkdwn and top-level `text`: `&`, `<`, `>` are control characters (`<!channel>`, `<url|label>`). */
export const slackEscape = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// Every character Discord's markdown gives a meaning: emphasis, code, spoilers, quotes, headings, lists,
// masked links `[text](url)`, mentions and custom emoji `<@id>`, `<:name:id>`, and the backslash itself.
const DISCORD_SPECIAL = /[\\*_~`|>#\-[\]()<:@]/g;

/** Discord: backslash-escapes markdown so text renders literally; `@everyone` also gets a zero-width break. */
export const discordEscape = (s: string): string =>
  s.replace(DISCORD_SPECIAL, (c) => `\\${c}`).replace(/\\@(everyone|here)/gi, "\\@\u200b$1");

/** Escapes, then fits into `limit` without cutting an escape sequence in half (shortens the raw text instead). */
export function escapeWithin(
  text: string,
  limit: number,
  escape: (s: string) => string,
  fit: (s: string, n: number) => string,
): string {
  let budget = limit;
  let out = escape(fit(text, budget));
  while (out.length > limit && budget > 1) {
    budget = Math.floor(budget * 0.8);
    out = escape(fit(text, budget));
  }
  return out;
}
