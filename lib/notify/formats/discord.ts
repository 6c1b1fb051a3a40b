import { elide } from "./elide";
import { messageTitle, requestText } from "./summary";
import type { NotifyMessage } from "./types";

// Discord embed limits: title 256, description 4,096, field value 1,024, 6,000 in total.
export function discordPayload(m: NotifyMessage): Record<string, unknown> {
  const { card } = m;
  const pending = m.type === "card.admitted" || m.type === "webhook.test";
  const fields = [
    { name: "Workspace", value: elide(card.workspace.name, 1024), inline: true },
    { name: "Agent", value: elide(`${card.agent} ${card.originPath}`, 1024), inline: true },
  ];
  if (card.reason) fields.push({ name: "Reason", value: elide(card.reason, 1024), inline: false });
  if (card.warnings.length)
    fields.push({ name: "Warnings", value: elide(card.warnings.join(", "), 1024), inline: false });
  const color = pending ? 0xe0a100 : card.status === "allowed" ? 0x1b7f3b : 0xc62828;
  const description = "```\n" + elide(requestText(card).replace(/```/g, "`\u200b``"), 3000) + "\n```";
  return {
    username: "Permissions Cockpit",
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: elide(messageTitle(m.type, card), 256),
        url: m.url,
        description,
        color,
        fields,
        timestamp: m.at.toISOString(),
      },
    ],
  };
}
