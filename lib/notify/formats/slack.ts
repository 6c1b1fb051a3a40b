import { elide } from "./elide";
import { escapeWithin, slackEscape as escape } from "./escape";
import { messageTitle, requestText } from "./summary";
import type { NotifyMessage } from "./types";

// Slack: a section's text holds at most 3,000 characters, a header 150.
const SECTION_LIMIT = 3000;
const mrkdwn = (s: string, limit: number) => escapeWithin(s, limit, escape, elide);

/**
 * Incoming-webhook body: header, the command in a code block, context and an "Open card" button.
 * Every mrkdwn string and the top-level `text` (the notification preview, also parsed as mrkdwn) escape `&`, `<`
 * and `>`, so `<!channel>` or `<https://evil|label>` in a command stays literal. The header is plain_text.
 */
export function slackPayload(m: NotifyMessage): Record<string, unknown> {
  const { card } = m;
  const pending = m.type === "card.admitted" || m.type === "webhook.test";
  const title = messageTitle(m.type, card);
  const code = mrkdwn(requestText(card).replace(/```/g, "`\u200b``"), SECTION_LIMIT - 10);
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: elide(title, 150), emoji: true } },
    { type: "section", text: { type: "mrkdwn", text: "```" + code + "```" } },
  ];
  if (card.reason)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: `*Reason:* ${mrkdwn(card.reason, SECTION_LIMIT - 20)}` },
    });
  if (card.warnings.length)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: `:warning: ${mrkdwn(card.warnings.join(", "), SECTION_LIMIT - 20)}` },
    });
  blocks.push({
    type: "context",
    elements: [
      {
        type: "mrkdwn",
        text: mrkdwn(
          `Workspace: ${card.workspace.name} · Agent: ${card.agent} ${card.originPath} · Tool: ${card.tool}`,
          SECTION_LIMIT,
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
  return { text: `${escape(title)}: ${mrkdwn(requestText(card), 200)}`, blocks };
}
