import type { WebhookFormat } from "@/db/schema/notify";
import { discordPayload } from "./discord";
import { jsonPayload } from "./json";
import { ntfyPayload } from "./ntfy";
import { slackPayload } from "./slack";
import type { FormatOptions, NotifyMessage } from "./types";

export type { FormatOptions, NotifyMessage } from "./types";
export { JSON_PAYLOAD_VERSION } from "./json";
export { elide } from "./elide";

/** The exact body bytes to sign and send for one message in one format. */
export function renderBody(format: WebhookFormat, m: NotifyMessage, options: FormatOptions = {}): string {
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
