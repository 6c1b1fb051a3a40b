import { elide } from "./elide";
import { messageTitle, requestText } from "./summary";
import type { NotifyMessage } from "./types";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
// Slack: a section's text holds at most 3,000 characters, a header 150.
const SECTION_LIMIT = 3000;

/** Incoming-webhook body: header, the command in a code block, context and an "Open card" button. */
export function slackPayload(m: NotifyMessage): Record<string, unknown> {
  const { card } = m;
  const pending = m.type === "card.admitted" || m.type === "webhook.test";
  const title = messageTitle(m.type, card);
  const code = elide(requestText(card).replace(/```/g, "`\u200b``"), SECTION_LIMIT - 10);
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: elide(title, 150), emoji: true } },
    { type: "section", text: { type: "mrkdwn", text: "```" + escape(code) + "```" } },
  ];
  if (card.reason)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: elide(`*Reason:* ${escape(card.reason)}`, SECTION_LIMIT) },
    });
  if (card.warnings.length)
    blocks.push({ type: "section", text: { type: "mrkdwn", text: `:warning: ${escape(card.warnings.join(", "))}` } });
  blocks.push({
    type: "context",
    elements: [
      {
        type: "mrkdwn",
        text: escape(
          `Workspace: ${card.workspace.name} · Agent: ${card.agent} ${card.originPath} · Tool: ${card.tool}`,
        ),
      },
    ],
  });
  blocks.push({
    type: "actions",
    elements: [
      {
        type: "button",
        text: { type: "plain_text", text: pending ? "Open card to answer" : "Open card" },
        url: m.url,
        ...(pending ? { style: "primary" } : {}),
      },
    ],
  });
  return { text: `${title}: ${elide(requestText(card), 200)}`, blocks };
}
