import { allowFromCockpit } from "@/lib/agents";
import { elide, utf8Bytes } from "./elide";
import { messageTitle, requestText } from "./summary";
import type { FormatOptions, NotifyMessage } from "./types";

/** ntfy's default message limit; longer messages become attachments, which we don't want. */
export const NTFY_MESSAGE_BYTES = 4096;

function actionButton(label: string, url: string, token: string, cardId: string, outcome: "allow" | "deny") {
  // The phone app sends this request, not a browser: the bearer marks it as a non-cookie caller; the token is the capability.
  return {
    action: "http",
    label,
    url,
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ card: cardId, outcome }),
    clear: true,
  };
}

/** JSON publish body for POST to the ntfy server root. */
export function ntfyPayload(m: NotifyMessage, options: FormatOptions): Record<string, unknown> {
  const { card } = m;
  const pending = m.type === "card.admitted" || m.type === "webhook.test";
  const lines = [requestText(card)];
  const context = `${card.workspace.name} · ${card.agent}${card.originPath !== "/root" ? ` ${card.originPath}` : ""}`;
  // An agent whose hook cannot approve: no Approve button, and the line that says where approving happens.
  const allow = allowFromCockpit(card.agent);
  const extra = [
    context,
    card.reason ? `Reason: ${card.reason}` : null,
    pending && !allow.ok ? allow.note : null,
    card.warnings.length ? `⚠ ${card.warnings.join(", ")}` : null,
  ]
    .filter(Boolean)
    .join("\n");
  const budget = NTFY_MESSAGE_BYTES - utf8Bytes(extra) - 2;
  const message = `${elide(lines.join("\n"), Math.max(200, budget), utf8Bytes)}\n${extra}`;
  const tags = pending
    ? ["lock", ...(card.warnings.length ? ["warning"] : [])]
    : [card.status === "allowed" ? "white_check_mark" : card.status === "expired" ? "hourglass" : "x"];
  const body: Record<string, unknown> = {
    topic: options.ntfyTopic ?? "",
    title: messageTitle(m.type, card),
    message: elide(message, NTFY_MESSAGE_BYTES, utf8Bytes),
    priority: pending ? (options.ntfyPriority ?? 4) : 2,
    tags,
    click: m.url,
  };
  const view = { action: "view", label: "Open", url: m.url, clear: false };
  if (pending && m.actions) {
    body.actions = [
      ...(allow.ok ? [actionButton("Approve", m.actions.approve.url, m.actions.approve.token, card.id, "allow")] : []),
      actionButton("Deny", m.actions.deny.url, m.actions.deny.token, card.id, "deny"),
      view,
    ];
  } else {
    body.actions = [view];
  }
  return body;
}
