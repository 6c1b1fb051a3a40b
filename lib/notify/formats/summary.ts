import type { CardView } from "@/lib/cards/view";

/** The part of a request a person reads first: the shell command, the file, or the input as JSON. */
export function requestText(card: Pick<CardView, "tool" | "input">): string {
  const input = card.input as Record<string, unknown>;
  if (typeof input.command === "string") return input.command;
  const file = input.file_path ?? input.path ?? input.notebook_path;
  if (typeof file === "string") return `${file}`;
  if (typeof input.url === "string") return input.url;
  return JSON.stringify(input, null, 2);
}

export function cardTitle(card: Pick<CardView, "agent" | "tool" | "workspace">): string {
  return `${card.agent} asks to run ${card.tool} in ${card.workspace.name}`;
}

/** Title for a settled or expired card. */
function settledTitle(card: CardView): string {
  const s = card.settlement;
  if (card.status === "expired") return `Expired: ${card.tool} in ${card.workspace.name}`;
  if (card.status === "aborted") return `Withdrawn by the agent: ${card.tool} in ${card.workspace.name}`;
  if (!s) return `${card.tool} in ${card.workspace.name}: ${card.status}`;
  return `${s.outcome === "allow" ? "Allowed" : "Denied"} by ${s.role ? `${s.by} (${s.role})` : s.by}: ${card.tool} in ${card.workspace.name}`;
}

/** The headline of a message: a test says so, a pending card asks, a settled one reports. */
export function messageTitle(type: string, card: CardView): string {
  if (type === "webhook.test") return `Test from Permissions Cockpit: ${cardTitle(card)}`;
  return type === "card.admitted" ? cardTitle(card) : settledTitle(card);
}
