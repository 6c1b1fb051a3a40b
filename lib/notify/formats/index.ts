import type { WebhookFormat } from "@/db/schema/notify";
import { displayCard } from "@/lib/text/reveal-card";
import { discordPayload } from "./discord";
import { jsonPayload } from "./json";
import { ntfyPayload } from "./ntfy";
import { slackPayload } from "./slack";
import type { FormatOptions, NotifyMessage } from "./types";

export type { FormatOptions, NotifyMessage } from "./types";
export { JSON_PAYLOAD_VERSION } from "./json";
export { elide } from "./elide";

/**
 * The exact body bytes to sign and send for one message in one format. Messages people read show hidden
 * characters visibly (`⟨U+202E⟩`, `⟨ESC⟩`) with a warning; the JSON format keeps the raw request for programs.
 */
export function renderBody(format: WebhookFormat, raw: NotifyMessage, options: FormatOptions = {}): string {
  const m = format === "json" ? raw : { ...raw, card: displayCard(raw.card) };
  const payload =
    format === "ntfy"
      ? ntfyPayload(m, options)
      : format === "slack"
        ? slackPayload(m)
        : format === "discord"
          ? discordPayload(m)
          : jsonPayload(m);
  return JSON.stringify(payload);
}
