import type { CardView, RememberOptionView } from "@/lib/cards/view";

/** One remember choice as the card offers it (older cards have only `remember.workspace`: one exact choice). */
export type Choice = Pick<RememberOptionView, "level" | "label" | "rules" | "verdict" | "suggested" | "coveredBy">;

/** The card's remember choices, narrowest first; the first is the default. Empty when nothing can be remembered. */
export function rememberChoices(card: Pick<CardView, "remember">): Choice[] {
  const r = card.remember;
  if (r.options?.length) return r.options;
  if (r.workspace.length === 0) return [];
  return [
    {
      level: "exact",
      label: "this request",
      rules: r.workspace,
      verdict: { severity: "ok", notes: [] },
      coveredBy: r.coveredBy,
    },
  ];
}

/** One existing allow that already covers proposed Always-allow rules, with what the card says about it. */
export interface CoveredNote {
  rule: string;
  store: string;
  /** The proposed rules it covers (not saved again). */
  rules: string[];
  text: string;
}

type Covered = Pick<Choice, "rules" | "coveredBy">;

/** The proposed rules Always allow still saves: those no existing allow covers. */
export function rulesToSave(choice: Covered): string[] {
  const covered = choice.coveredBy ?? [];
  return choice.rules.filter((_, i) => !covered[i]);
}

/** Every proposed rule is covered: the call is already allowed by the store, Always allow would add nothing. */
export function allCovered(choice: Covered): boolean {
  return choice.rules.length > 0 && rulesToSave(choice).length === 0;
}

/** "Already allowed by `Bash(npm run:*)` in .claude/settings.json: …", one note per covering rule. */
export function coveredNotes(choice: Covered): CoveredNote[] {
  const covered = choice.coveredBy ?? [];
  const all = allCovered(choice);
  const by = new Map<string, CoveredNote>();
  choice.rules.forEach((rule, i) => {
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
