export { displayCard } from "@/lib/text/reveal-card";

/** How loudly to show a policy warning, and what it means for the person deciding. */
export interface WarningBanner {
  tone: "danger" | "warn";
  title: string;
  detail: string;
}

const KNOWN: Record<string, WarningBanner> = {
  "dangerous command": {
    tone: "danger",
    title: "Dangerous command",
    detail: "It can destroy data or run arbitrary code. Read all of it before allowing.",
  },
  "protected path": {
    tone: "danger",
    title: "Protected path",
    detail: "It touches agent settings, version-control internals or other protected files.",
  },
  "root/home delete": {
    tone: "danger",
    title: "Deletes the root or home folder",
    detail: "Allowing this can erase everything the agent's user owns.",
  },
  "secret material": {
    tone: "danger",
    title: "Secret material",
    detail: "It reads or writes keys, tokens or credentials.",
  },
  "recursive delete": {
    tone: "danger",
    title: "Recursive delete",
    detail: "It deletes a folder and everything in it. Check the path.",
  },
  "downloads and runs code": {
    tone: "danger",
    title: "Downloads and runs code",
    detail: "It fetches a script from the network and runs it at once: what runs is not what you see here.",
  },
  "hidden characters": {
    tone: "danger",
    title: "Hidden characters",
    detail:
      "The request contains bidi controls, zero-width characters or terminal escapes, shown here as ⟨U+…⟩ / ⟨ESC⟩. The text may not be what it looks like.",
  },
  "engine error": {
    tone: "warn",
    title: "Policy engine error",
    detail: "The cockpit could not evaluate this request fully; decide from what you see.",
  },
  "agent may still ask": {
    tone: "warn",
    title: "The agent may still ask",
    detail:
      "Command Code's documentation does not say that a hook's allow skips its own approval prompt: after Allow here, its terminal may ask once more.",
  },
  "unsupported shell syntax": {
    tone: "warn",
    title: "Unsupported shell syntax",
    detail: "The cockpit could not fully analyse this command, so no rule covers it. Read it yourself.",
  },
};

export function warningBanner(warning: string): WarningBanner {
  return (
    KNOWN[warning] ?? {
      tone: "warn",
      title: warning.charAt(0).toUpperCase() + warning.slice(1),
      detail: "The policy engine flagged this request.",
    }
  );
}

/** Rewrites ISO timestamps in server messages ("already settled by X at 2026-…Z") as local clock times. */
export function humanizeTimes(message: string, format: (iso: string) => string): string {
  return message.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (iso) => format(iso));
}
