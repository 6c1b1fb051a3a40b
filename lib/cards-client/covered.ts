import type { CardView } from "@/lib/cards/view";

type Remember = Pick<CardView, "remember">;

/** One existing allow that already covers proposed Always-allow rules, with what the card says about it. */
export interface CoveredNote {
  rule: string;
  store: string;
  /** The proposed rules it covers (not saved again). */
  rules: string[];
  text: string;
}

/** The proposed workspace rules Always allow still saves: those no existing allow covers. */
export function rulesToSave(card: Remember): string[] {
  const covered = card.remember.coveredBy ?? [];
  return card.remember.workspace.filter((_, i) => !covered[i]);
}

/** Every proposed rule is covered: the call is already allowed by the store, Always allow would add nothing. */
export function allCovered(card: Remember): boolean {
  return card.remember.workspace.length > 0 && rulesToSave(card).length === 0;
}

/** "Already allowed by `Bash(npm run:*)` in .claude/settings.json: …", one note per covering rule. */
export function coveredNotes(card: Remember): CoveredNote[] {
  const covered = card.remember.coveredBy ?? [];
  const all = allCovered(card);
  const by = new Map<string, CoveredNote>();
  card.remember.workspace.forEach((rule, i) => {
    const c = covered[i];
    if (!c) return;
    const key = `${c.rule}\u0000${c.store}`;
    const note = by.get(key) ?? { rule: c.rule, store: c.store, rules: [], text: "" };
    note.rules.push(rule);
    by.set(key, note);
  });
  return [...by.values()].map((n) => ({
    ...n,
    text: all
      ? `Already allowed by ${n.rule} in ${n.store}: this call would be allowed by it`
      : `Already allowed by ${n.rule} in ${n.store}: Always allow does not save ${n.rules.join(", ")} again`,
  }));
}
