import type { CardView } from "@/lib/cards/view";
import { formatTime } from "@/lib/client/time";

export { formatTime };

type Settled = Pick<CardView, "status" | "settlement">;

const VIA: Record<string, string> = { web: "web", ntfy: "ntfy", push: "push notification", cli: "command line" };

/** The headline of a settled card: what happened, in words a person expects. */
export function settlementTitle(card: Settled): string {
  const s = card.settlement;
  switch (card.status) {
    case "pending":
      return "Waiting for an answer";
    case "expired":
      return "Expired: nobody answered";
    case "aborted":
      return "Answered elsewhere (in the terminal)";
    case "coalesced":
      return s?.outcome === "deny" ? "Denied by a rule" : "Allowed by a rule";
    case "allowed":
      if (s?.remember === "session") return "Allowed for this session";
      if (s?.remember === "workspace") return "Always allowed";
      return "Allowed once";
    case "denied":
      if (s?.source === "recheck") return "Denied by a rule added meanwhile";
      if (s?.source === "absence-held") return "Denied: the user may be away";
      if (s?.source === "expired") return "Expired: nobody answered";
      return s?.message ? "Denied with feedback" : "Denied";
  }
}

/** "Ada (approver)": a person's name with their role, so no chosen name can pass for another party. */
export function personWithRole(s: { by: string; role?: string }): string {
  return s.role ? `${s.by} (${s.role})` : s.by;
}

/** "by you at 14:02 via web": who settled a card, when and how (empty while pending). */
export function settlementDetail(card: Settled, { me, now }: { me?: string; now?: Date } = {}): string {
  const s = card.settlement;
  if (!s || card.status === "pending") return "";
  const human = s.source === "user" || s.source === "recheck";
  const who = human ? `by ${me && s.by === me ? "you" : personWithRole(s)} ` : "";
  const via = human && VIA[s.via] ? ` via ${VIA[s.via]}` : "";
  const passkey = s.passkey ? ` · confirmed with passkey ${s.passkey.name}` : "";
  return `${who}at ${formatTime(s.at, now)}${via}${passkey}`;
}

/** "Allowed once · by you at 14:02 via web" — the confirmation shown after answering and on deep links. */
export function describeSettlement(card: Settled, opts: { me?: string; now?: Date } = {}): string {
  const title = settlementTitle(card);
  const detail = settlementDetail(card, opts);
  return detail ? `${title} · ${detail}` : title;
}

export function statusTone(status: CardView["status"]): "ok" | "bad" | "muted" {
  if (status === "allowed") return "ok";
  if (status === "denied" || status === "expired") return "bad";
  return "muted";
}

const CAUSES: Record<string, string> = {
  rule: "a rule says to ask",
  mode: "the agent's mode asks for this kind of action",
  "resource-boundary": "it reaches outside the workspace",
  "protected-resource": "it touches a protected file or setting",
  "explicit-ask-rule": "an explicit ask rule matches",
  safety: "a safety check (destructive or sensitive)",
  hook: "a hook asked",
};

/** Why the prompt appeared, in a phrase. Unknown causes are shown as they are. */
export function describeCause(cause: string): string {
  return CAUSES[cause] ?? cause;
}

/** "in 4 min", "in 35 s", "now" — time left before an absence deadline. */
export function timeLeft(deadlineIso: string, now: Date = new Date()): string {
  const ms = new Date(deadlineIso).getTime() - now.getTime();
  if (ms <= 0) return "now";
  const s = Math.ceil(ms / 1000);
  if (s < 90) return `in ${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `in ${m} min`;
  return `in ${Math.round(m / 60)} h`;
}

/** The file "Always allow" writes to, as a full path (the card names it relative to the workspace). */
export function storeFilePath(card: Pick<CardView, "remember" | "workspace">): string | null {
  const store = card.remember.workspaceStore;
  if (!store) return null;
  if (store.startsWith("/") || store.startsWith("~") || /^[A-Za-z]:[\\/]/.test(store)) return store;
  return `${card.workspace.path.replace(/[\\/]+$/, "")}/${store}`;
}

/**
 * The notice for a refused answer. When someone else's answer won, say who (the viewer's own name
 * means another tab or device) and what they answered; otherwise the server's reason, in local time.
 */
export function conflictText(
  serverMessage: string,
  card: Settled | null,
  { me, now }: { me?: string; now?: Date } = {},
): string {
  const s = card?.settlement;
  if (card && s && (card.status === "allowed" || card.status === "denied") && s.source === "user") {
    const who = me && s.by === me ? "you (another tab or device)" : personWithRole(s);
    return `Not answered: already settled by ${who} at ${formatTime(s.at, now)} — ${settlementTitle(card)}`;
  }
  return `Not answered: ${serverMessage.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (iso) => formatTime(iso, now))}`;
}
