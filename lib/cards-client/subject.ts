import type { CardView } from "@/lib/cards/view";
import { PATH_FIELDS } from "@/lib/policy/tools";

/** The one thing a person must read to answer: the command, the path, the URL… and any long body. */
export interface CardSubject {
  /** "Command", "File", "URL", "Pattern" or "Input". */
  label: string;
  text: string;
  /** Secondary long fields (file content, replaced text) worth showing folded. */
  extras: { label: string; text: string }[];
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

export function cardSubject(card: Pick<CardView, "tool" | "input">): CardSubject {
  const input = card.input;
  const extras: CardSubject["extras"] = [];
  const add = (label: string, key: string) => {
    const v = str(input[key]);
    if (v !== null && v !== "") extras.push({ label, text: v });
  };
  // Exactly the fields the engine judges: `command`, then the first path field in the engine's order.
  const command = str(input.command);
  if (command !== null) {
    add("Description", "description");
    return { label: "Command", text: command, extras };
  }
  const file = PATH_FIELDS.map((f) => str(input[f])).find((v) => v !== null) ?? null;
  if (file !== null) {
    add("New content", "content");
    add("Replace", "old_string");
    add("With", "new_string");
    add("Cell", "new_source");
    if (str(input.pattern)) add("Pattern", "pattern");
    return { label: "File", text: file, extras };
  }
  const url = str(input.url);
  if (url !== null) {
    add("Prompt", "prompt");
    return { label: "URL", text: url, extras };
  }
  const pattern = str(input.pattern) ?? str(input.query);
  if (pattern !== null) return { label: "Pattern", text: pattern, extras };
  return { label: "Input", text: JSON.stringify(input, null, 2), extras };
}
