export type Format = "json" | "ntfy" | "slack" | "discord";
export type EventType = "card.admitted" | "card.settled" | "card.expired" | "audit.checkpoint";

export interface EndpointItem {
  id: string;
  url: string;
  format: Format;
  workspaceId: string | null;
  workspaceName: string | null;
  events: EventType[];
  enabled: boolean;
  delaySeconds: number;
  ntfyTopic: string | null;
  ntfyPriority: number | null;
  hasNtfyToken: boolean;
  disabledReason: string | null;
}

export interface WorkspaceOption {
  id: string;
  name: string;
  path: string;
}

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
