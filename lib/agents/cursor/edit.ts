/**
 * In-place edits of Cursor config files: revoke, narrow and add `permissions.allow|deny` strings by splicing only the
 * entry's own text (jsonc-parser ranges), so comments, key order, indentation and every other byte stay. Pure: text in,
 * text out (io/write.ts `editCursorStore` does the compare-and-swap write).
 */
import { appendJsonRule } from "@/lib/stores/json-append";
import { removeJsonRule, replaceJsonRule } from "@/lib/stores/json-edit";
import {
  StoreChangedError,
  InvalidInputError,
  InvalidStoreError,
  NarrowingRefusedError,
  EntryNotFoundError,
} from "@/lib/errors";
import { parseCursorConfig, type CursorAction, type CursorRule, type CursorScope } from "./config";
import { isNarrowerToken } from "./narrow";
import { parseToken, type CursorToken } from "./tokens";

/** Which entry an edit is for, as it was listed (a stale listing is refused, never guessed). */
export interface EntryRef {
  action: CursorAction;
  index: number;
  /** The entry's exact string when it was listed. */
  text: string;
}

function parsedOrThrow(text: string, file: string, scope: CursorScope) {
  const p = parseCursorConfig(text, file, scope);
  if (!p.valid) throw new InvalidStoreError(`${file}: ${p.error} — it is never overwritten`);
  return p;
}

function entryOf(text: string, file: string, scope: CursorScope, ref: EntryRef): CursorRule {
  const rule = parsedOrThrow(text, file, scope).rules.find((r) => r.action === ref.action && r.index === ref.index);
  if (!rule) throw new EntryNotFoundError(`no permissions.${ref.action}[${ref.index}] in ${file}`);
  if (rule.text !== ref.text) throw new StoreChangedError();
  return rule;
}

export function parseTokenInput(text: string): CursorToken {
  const p = parseToken(text);
  if (!p.ok) throw new InvalidInputError(p.error);
  return p.token;
}

/** Remove one entry (and the line it sat alone on). */
export function revokeText(text: string, file: string, scope: CursorScope, ref: EntryRef): string {
  entryOf(text, file, scope, ref);
  return removeJsonRule(text, ref.action, ref.index, ref.text);
}

/** Append `token` to `permissions.<action>`, creating the list or object as needed; an existing identical entry is refused. */
export function addText(text: string, file: string, scope: CursorScope, action: CursorAction, token: string): string {
  const t = parseTokenInput(token);
  const p = parsedOrThrow(text, file, scope);
  if (p.rules.some((r) => r.action === action && r.text === t.text))
    throw new InvalidInputError(`${t.text} is already in permissions.${action} of ${file}`);
  return appendJsonRule(text, action, t.text);
}

/**
 * Replace an entry by a proved-narrower one: a smaller allow token in place, a larger deny token in place, or
 * `to: "deny"` to move an allow entry to the deny list (Cursor has no ask list).
 */
export function narrowText(text: string, file: string, scope: CursorScope, ref: EntryRef, to: string): string {
  const rule = entryOf(text, file, scope, ref);
  if (!rule.token)
    throw new NarrowingRefusedError(
      `cannot prove narrower: ${rule.text} is not a token Cursor documents; revoke it instead`,
    );
  if (to.trim() === "deny") {
    if (ref.action !== "allow") throw new NarrowingRefusedError("cannot prove narrower: the entry already denies");
    const removed = removeJsonRule(text, "allow", ref.index, ref.text);
    const p = parseCursorConfig(removed, file, scope);
    return p.rules.some((r) => r.action === "deny" && r.text === rule.text)
      ? removed
      : appendJsonRule(removed, "deny", rule.text);
  }
  if (to.trim() === "allow" || to.trim() === "ask")
    throw new NarrowingRefusedError(
      to.trim() === "ask"
        ? "cannot prove narrower: Cursor has no ask list — revoke the allow entry and Cursor asks"
        : "cannot prove narrower: deny → allow loosens the entry",
    );
  const next = parseTokenInput(to);
  const proof = isNarrowerToken({ action: ref.action, token: rule.token }, { action: ref.action, token: next });
  if (!proof.proved) throw new NarrowingRefusedError(proof.reason);
  return replaceJsonRule(text, ref.action, ref.index, ref.text, next.text);
}
