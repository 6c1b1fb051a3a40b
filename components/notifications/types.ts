import type { EndpointView } from "@/lib/client/api";
import type { NOTIFY_EVENTS, WEBHOOK_FORMATS } from "@/lib/notify/endpoints";

export type { WorkspaceOption } from "@/lib/client/api";
/** The fields of an endpoint the page hands to the browser (no author, no timestamps). */
export type EndpointItem = Pick<
  EndpointView,
  | "id"
  | "url"
  | "format"
  | "workspaceId"
  | "workspaceName"
  | "events"
  | "enabled"
  | "delaySeconds"
  | "ntfyTopic"
  | "ntfyPriority"
  | "hasNtfyToken"
  | "disabledReason"
>;
export type Format = (typeof WEBHOOK_FORMATS)[number];
export type EventType = (typeof NOTIFY_EVENTS)[number];

export const EVENT_LABELS: Record<EventType, string> = {
  "card.admitted": "A card needs an answer",
  "card.settled": "A card was answered",
  "card.expired": "A card expired",
  "audit.checkpoint": "The audit log signed a checkpoint (keep a copy outside)",
};

export const FORMAT_LABELS: Record<Format, string> = {
  json: "Generic JSON",
  ntfy: "ntfy",
  slack: "Slack",
  discord: "Discord",
};
