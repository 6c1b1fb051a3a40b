import { warningBanner } from "@/lib/cards-client/warnings";
import { revealDeep } from "@/lib/text/reveal";

const HIDDEN = warningBanner("hidden characters");

/**
 * The "hidden characters" warning cards show, as a tag for a row of the Rules page, the Audit page, the impact
 * preview or the clean-up diff. Render it whenever `revealDeep` found something.
 */
export function HiddenTextWarning({ hidden }: { hidden: boolean }) {
  if (!hidden) return null;
  return (
    <span className="tag bad" role="img" aria-label={HIDDEN.title} title={HIDDEN.detail} data-testid="hidden-warning">
      ⚠ {HIDDEN.title}
    </span>
  );
}

/** Agent- or file-supplied text, hidden characters shown as ⟨U+202E⟩, with the warning after it when there were any. */
export function RevealedText({ text, className }: { text: string; className?: string }) {
  const { value, hidden } = revealDeep(text);
  return (
    <>
      <span className={className}>{value}</span>
      {hidden ? (
        <>
          {" "}
          <HiddenTextWarning hidden />
        </>
      ) : null}
    </>
  );
}
