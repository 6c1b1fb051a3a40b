import type { NotifyMessage } from "./types";

export const JSON_PAYLOAD_VERSION = 1;

/** The generic, versioned payload: `{type, version, timestamp, data: {card, url}}` with the full card. */
export function jsonPayload(m: NotifyMessage): Record<string, unknown> {
  return {
    type: m.type,
    version: JSON_PAYLOAD_VERSION,
    timestamp: m.at.toISOString(),
    data: { card: m.card, url: m.url },
  };
}
