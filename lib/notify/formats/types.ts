import type { CardView } from "@/lib/cards/view";
import type { NotifyEventType } from "@/db/schema/notify";

/** What every format renders: one event about one card, with its deep link. */
export interface NotifyMessage {
  type: NotifyEventType | "webhook.test";
  msgId: string;
  at: Date;
  card: CardView;
  url: string;
  /** ntfy only: one-time callback URLs for the Approve and Deny buttons (pending cards). */
  actions?: { approve: { url: string; token: string }; deny: { url: string; token: string } };
}

export interface FormatOptions {
  ntfyTopic?: string | null;
  ntfyPriority?: number | null;
}
