import type { CardRemember, CoveredBy, RememberLevelName } from "@/db/schema";
import { UnprocessableError } from "@/lib/errors";

export const REMEMBER_CHOICES = ["exact", "subcommand", "program", "folder", "suggested"] as const;

export interface ChosenRemember {
  level: RememberLevelName;
  rules: string[];
  /** Parallel to `rules`: an existing allow that already covers it (not saved again). */
  coveredBy: (CoveredBy | null)[];
}

/**
 * The rules a remembering answer stores: the option the person picked on the card, or the card's default
 * (its first, narrowest option). Only options the card offered (and hashed) can be chosen.
 */
export function chosenRemember(remember: CardRemember, choice?: RememberLevelName): ChosenRemember {
  const options = remember.options ?? [];
  if (!choice || options.length === 0) {
    if (choice && choice !== "exact")
      throw new UnprocessableError(`this card offers no "${choice}" choice; allow it once or answer without a choice`);
    const first = options[0];
    return {
      level: first?.level ?? "exact",
      rules: first?.rules ?? remember.workspace,
      coveredBy: first?.coveredBy ?? remember.coveredBy ?? [],
    };
  }
  const picked = options.find((o) => o.level === choice);
  if (!picked)
    throw new UnprocessableError(
      `this card offers no "${choice}" choice (it offers ${options.map((o) => o.level).join(", ")})`,
    );
  return { level: picked.level, rules: picked.rules, coveredBy: picked.coveredBy ?? [] };
}
