"use client";
import { memo, useContext, useMemo } from "react";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { revealDeep } from "@/lib/text/reveal";
import type { EntryView } from "./query";
import { FindingBadges, FindingsContext, NarrowTo, worstRank } from "./hygiene";
import { Time } from "@/components/ui/time";
import styles from "./rules.module.css";

type GrantLike = { path: string; access: string; label: "exact" | "recursive" };

function ActionBadge({ action }: { action: string }) {
  return <span className={`${styles.badge} ${styles[action as "allow" | "ask" | "deny"] ?? ""}`}>{action}</span>;
}

function GrantTags({ grant }: { grant: GrantLike }) {
  return (
    <>
      <span className="tag" data-testid="grant-extent">
        <strong>{grant.label}</strong>
      </span>
      <span className="tag">{grant.access}</span>
    </>
  );
}

export interface EntryActions {
  onRevoke?: (entry: EntryView) => void;
  /** `to`: a suggestion picked already ("Narrow to…" on an over-broad rule). */
  onNarrow?: (entry: EntryView, to?: string) => void;
  /** The workspace, for the narrowing suggestions of over-broad rules. */
  workspace?: string;
}

const SEVERITY = ["", "info", "warning", "error"] as const;

/**
 * One rule, grant or profile: action, authored text, what the engine made of it, where it sits. The text comes from
 * a file (maybe a cloned repo's): hidden characters are shown as ⟨U+202E⟩ with the cards' warning; the actions get
 * the entry as listed.
 */
export const EntryRow = memo(function EntryRow({
  entry: listed,
  onRevoke,
  onNarrow,
  workspace,
}: { entry: EntryView } & EntryActions) {
  const { value: entry, hidden } = useMemo(() => revealDeep(listed), [listed]);
  const severity = SEVERITY[worstRank(useContext(FindingsContext).get(listed.id))];
  return (
    <li
      className={styles.entry}
      data-testid="entry"
      data-entry-id={listed.id}
      data-scope={entry.scope}
      data-severity={severity || undefined}
    >
      <div className={styles.entryMain}>
        <div className={styles.entryTop}>
          <ActionBadge action={entry.action} />
          <p className={styles.ruleText}>{entry.rule}</p>
          <HiddenTextWarning hidden={hidden} />
        </div>
        <div className={styles.meta}>
          <span className="tag">{entry.kind}</span>
          {entry.tool ? (
            <span>
              <code>{entry.tool}</code>
              {entry.specifier ? (
                <>
                  {" "}
                  <code>{entry.specifier}</code>
                </>
              ) : null}
            </span>
          ) : null}
          {entry.grant ? <GrantTags grant={entry.grant} /> : null}
          <span>{entry.agent}</span>
          {entry.line > 0 ? <span>line {entry.line}</span> : null}
          {entry.agentSessionId ? <span>session {entry.agentSessionId}</span> : null}
          {entry.usage ? (
            <span data-testid="entry-usage" title="Logged calls this entry decided (audit log)">
              {entry.usage.count === 0 ? (
                "never used"
              ) : (
                <>
                  used {entry.usage.count}× · last <Time iso={entry.usage.lastUsed!} />
                </>
              )}
            </span>
          ) : null}
        </div>
        {entry.profile ? (
          <div className={styles.meta}>
            <span className="tag">network {entry.profile.network ? "on" : "off"}</span>
            {entry.profile.fileSystem.length === 0 ? <span>no file-system grants</span> : null}
          </div>
        ) : null}
        {entry.profile && entry.profile.fileSystem.length > 0 ? (
          <ul className={styles.children} aria-label="Profile file-system grants">
            {entry.profile.fileSystem.map((g, i) => (
              <li key={i}>
                <code>{g.path}</code> <GrantTags grant={g} />
              </li>
            ))}
          </ul>
        ) : null}
        <FindingBadges id={entry.id} />
        {entry.malformed ? <p className={`warning ${styles.malformed}`}>Malformed: {entry.malformed}</p> : null}
      </div>
      {entry.writable && (onRevoke || onNarrow) ? (
        <div className={styles.actions}>
          {onNarrow && workspace && entry.scope !== "session" ? (
            <NarrowTo workspace={workspace} entryId={listed.id} onNarrow={(to) => onNarrow(listed, to)} />
          ) : null}
          {onNarrow && entry.scope !== "session" ? (
            <button type="button" onClick={() => onNarrow(listed)} aria-label={`Narrow ${entry.rule}`}>
              Narrow
            </button>
          ) : null}
          {onRevoke ? (
            <button type="button" onClick={() => onRevoke(listed)} aria-label={`Revoke ${entry.rule}`}>
              Revoke
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
});
