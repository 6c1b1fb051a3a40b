/**
 * mevedel's permission log (`permission-log.el`) as audit events: its outcome words, its settlement sources, its
 * `%FT%T%z` times and its specifier fields mapped onto the audit log's columns. lib/audit adds who imported it, the
 * workspace and the import key (ADR 0006: an agent returns plain data, the audit layer records it).
 */
import type { AgentAuditLog, AuditLogEntry, ImportedDecisionSource, ImportedEvent, ImportedEventType } from "../types";
import { MevedelLogReader } from "./permission-log";

const QUEUE_EVENTS: Record<string, ImportedEventType> = {
  "permission-enqueued": "card.enqueued",
  "permission-displayed": "card.displayed",
  "permission-resolved": "card.resolved",
  "permission-coalesced": "card.coalesced",
  "permission-swept": "card.swept",
  "permission-expired": "card.expired",
  "permission-aborted": "card.aborted",
};

const str = (v: unknown, max = 300): string | null =>
  typeof v === "string" && v ? v.slice(0, max) : typeof v === "number" ? String(v) : null;

/** A keyword value (`:pattern`) without its colon. */
const word = (v: unknown): string | null => str(v, 100)?.replace(/^:/, "") ?? null;

/**
 * mevedel's outcome (a symbol, or the dotted pairs `(deny . "REASON")` / `(feedback . "TEXT")` read as
 * `{deny: …}` / `{feedback: …}`) as allow / deny / ask / aborted, keeping the raw word, the reason and the feedback.
 */
export function mevedelOutcome(v: unknown): {
  outcome: string | null;
  raw: string | null;
  reason?: string;
  feedback?: string;
} {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.deny === "string") return { outcome: "deny", raw: "deny", reason: o.deny };
    if (typeof o.feedback === "string") return { outcome: "deny", raw: "feedback", feedback: o.feedback };
    return { outcome: null, raw: null };
  }
  const raw = str(v, 50);
  if (!raw) return { outcome: null, raw: null };
  if (/^(allow|allow-once|allow-session|always-allow|allowed|approve|approved|accept|accepted)$/.test(raw))
    return { outcome: "allow", raw };
  if (/^(deny|deny-once|deny-session|denied|reject|rejected|block|blocked)$/.test(raw)) return { outcome: "deny", raw };
  if (/^(ask|prompt)$/.test(raw)) return { outcome: "ask", raw };
  return { outcome: raw, raw };
}

// Settlement phases that are not a person's answer: teardown, cancellation, a failed render, the queue's own policy.
const NOT_A_PERSON = new Set(["abort", "cancelled", "sweep", "no-session", "render-failed", "expired", "absence-held"]);
const HOOK_VIAS = new Set(["hook", "pre-tool-hook", "permission-request-hook"]);

/** The decision source in Claude Code's `tool_decision` vocabulary; null when no decision was made by anyone. */
function sourceOf(
  event: string,
  f: Record<string, unknown>,
  o: ReturnType<typeof mevedelOutcome>,
): ImportedDecisionSource | null {
  const settlement = word(f["settlement-source"]);
  const via = word(f.via) ?? word(f["permission-via"]);
  // A queue teardown (aborted, swept) or an absence expiry settles a card, but nobody decided it.
  if (event === "permission-aborted" || event === "permission-swept" || event === "permission-expired") return null;
  if (settlement && NOT_A_PERSON.has(settlement)) return null;
  if (settlement === "hook" || (via && HOOK_VIAS.has(via))) return "hook";
  if (o.raw === "always-allow") return "user_permanent";
  if (o.raw === "allow-session") return "user_temporary";
  if (event === "permission-resolved") {
    if (o.outcome === "deny") return "user_reject";
    if (o.outcome !== "allow") return null;
    const lifetime = word(f["approval-lifetime"]);
    return lifetime === "workspace" || lifetime === "persistent" || lifetime === "global"
      ? "user_permanent"
      : "user_temporary";
  }
  if (event === "permission-decision" || event === "permission-coalesced") return "config";
  return null;
}

/** `%FT%T%z` (`2026-05-01T10:00:00+0200`) or ISO-8601 → an ISO UTC instant; null when unreadable. */
export function mevedelTime(v: unknown): string | null {
  const s = str(v, 100);
  if (!s) return null;
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)(Z|[+-]\d\d:?\d\d)$/.exec(s.trim());
  if (!m) return null;
  const zone = m[2] === "Z" ? "Z" : `${m[2].slice(0, 3)}:${m[2].slice(-2)}`;
  const t = Date.parse(`${m[1]}${zone}`);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const KIND_TOOL: Record<string, string> = { bash: "Bash", eval: "Eval" };

/** The call the entry describes: the specifier (`:pattern` is the command, or the expression for Eval). */
function inputOf(f: Record<string, unknown>, tool: string | null): Record<string, unknown> | null {
  const input: Record<string, unknown> = {};
  const key = word(f["specifier-key"]);
  const value = str(f["specifier-value"], 100_000);
  if (key && value !== null) input[key === "pattern" ? (tool === "Eval" ? "expression" : "command") : key] = value;
  for (const k of ["command", "expression", "detail", "justification"])
    if (typeof f[k] === "string" && input[k] === undefined) input[k] = f[k];
  const resource = str(f["resource-path"], 4096);
  if (resource) input.path ??= resource;
  const legacy = str(f.specifier, 4000);
  if (legacy) input.specifier = legacy;
  return Object.keys(input).length ? input : null;
}

/** One log entry as an audit event; every field stays in `detail.imported`, the original time as `detail.occurredAt`. */
export function mevedelEvent(entry: AuditLogEntry, session?: string): ImportedEvent {
  const f = entry.fields;
  const event = str(f.event, 100) ?? "permission-decision";
  const o = mevedelOutcome(f.outcome ?? f.decision);
  const tool = str(f["tool-name"]) ?? str(f.tool) ?? KIND_TOOL[word(f.kind) ?? ""] ?? null;
  const occurredAt = mevedelTime(f.time ?? f.timestamp);
  return {
    type: QUEUE_EVENTS[event] ?? "agent.decision",
    target: str(f["permission-id"]) ?? str(f["request-id"]) ?? str(f["interaction-id"]),
    outcome: o.outcome,
    decisionSource: sourceOf(event, f, o),
    rule: str(f.rule, 10_000),
    store: str(f.bucket, 4096) ?? str(f["rule-bucket"], 4096),
    agentSessionId: str(f.session ?? f["session-id"]) ?? session ?? null,
    toolUseId: str(f["tool-use-id"] ?? f["tool-call-id"]),
    cwd: str(f["execution-directory"], 4096),
    tool,
    input: inputOf(f, tool),
    detail: {
      imported: {
        ...f,
        ...(o.raw && o.raw !== o.outcome ? { outcomeRaw: o.raw } : {}),
        ...(o.reason !== undefined ? { reason: o.reason } : {}),
        ...(o.feedback !== undefined ? { feedback: o.feedback } : {}),
      },
      event,
      // Parsed and checked here (an ISO instant), so it may sit beside `at` for the time filter.
      ...(occurredAt ? { occurredAt } : {}),
      loggedAt: str(f.time ?? f.timestamp, 100),
      importedFrom: "mevedel permission-log.el",
      line: entry.line,
    },
  };
}

export const auditLog: AgentAuditLog = {
  reader: (salt) => new MevedelLogReader(salt),
  toEvent: mevedelEvent,
};
