import type { CardView } from "@/lib/cards/view";

/** Pending cards of one root session (a main agent and its subagents). */
export interface SessionGroup {
  key: string;
  workspace: CardView["workspace"];
  agent: string;
  rootSessionId: string;
  cards: CardView[];
}

/** Groups by workspace + root session; groups and cards inside them oldest first. */
export function groupByRootSession(cards: CardView[]): SessionGroup[] {
  const groups = new Map<string, SessionGroup>();
  const sorted = [...cards].sort(byCreated);
  for (const card of sorted) {
    const key = `${card.workspace.id}\u0000${card.rootSessionId}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, workspace: card.workspace, agent: card.agent, rootSessionId: card.rootSessionId, cards: [] };
      groups.set(key, group);
    }
    group.cards.push(card);
  }
  return [...groups.values()];
}

function byCreated(a: CardView, b: CardView): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id.localeCompare(b.id);
}

/** Session ids are long UUIDs; the first 8 characters tell sessions apart on a phone. */
export function shortSessionId(id: string): string {
  return id.length > 10 ? id.slice(0, 8) : id;
}
