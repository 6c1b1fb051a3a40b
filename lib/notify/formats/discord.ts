import { elide } from "./elide";
import { discordEscape, escapeWithin } from "./escape";
import { messageTitle, requestText } from "./summary";
import type { NotifyMessage } from "./types";

/** Escaped markdown that still fits Discord's limit for that field. */
const text = (s: string, limit: number) => escapeWithin(s, limit, discordEscape, elide);

// Discord embed limits: title 256, description 4,096, field value 1,024, 6,000 in total.
// Every agent-chosen string is markdown-escaped (no masked links, mentions or formatting); the command sits in a
// code block, where Discord renders nothing, and `allowed_mentions: {parse: []}` stops any ping that slips through.
export function discordPayload(m: NotifyMessage): Record<string, unknown> {
  const { card } = m;
  const pending = m.type === "card.admitted" || m.type === "webhook.test";
  const fields = [
    { name: "Workspace", value: text(card.workspace.name, 1024), inline: true },
    { name: "Agent", value: text(`${card.agent} ${card.originPath}`, 1024), inline: true },
  ];
  if (card.reason) fields.push({ name: "Reason", value: text(card.reason, 1024), inline: false });
  if (card.warnings.length)
    fields.push({ name: "Warnings", value: text(card.warnings.join(", "), 1024), inline: false });
  const color = pending ? 0xe0a100 : card.status === "allowed" ? 0x1b7f3b : 0xc62828;
  const description = "```\n" + elide(requestText(card).replace(/```/g, "`\u200b``"), 3000) + "\n```";
  return {
    username: "Permissions Cockpit",
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: text(messageTitle(m.type, card), 256),
        url: m.url,
        description,
        color,
        fields,
        timestamp: m.at.toISOString(),
      },
    ],
  };
}
