import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { AUDIT_LOCK_KEY } from "./head";
import { recordAuditBatch } from "./record";
import type { AuditEvent, AuditEventType, DecisionSource } from "./events";
import { TOOL_NAME } from "@/lib/policy/tools";
import { revealHidden } from "@/lib/text/reveal";

/** One batch the CLI streams to the owner-only import route. */
export const ImportBatch = z.object({
  workspace: z.string().trim().min(1).max(4096),
  source: z.literal("mevedel"),
  /** The agent session the log belongs to (mevedel keeps one log per session folder); entries may name their own. */
  session: z.string().trim().min(1).max(300).optional(),
  entries: z
    .array(
      z.object({
        line: z.number().int().min(1),
        key: z.string().regex(/^[0-9a-f]{64}$/),
        fields: z.record(z.string(), z.unknown()),
      }),
    )
    .max(5000)
    .superRefine((entries, ctx) => {
      // Tool names follow the agents' grammar, as on the card and events APIs (no hidden characters).
      for (const e of entries)
        for (const key of ["tool", "tool-name"]) {
          const tool = e.fields[key];
          if (tool === undefined || (typeof tool === "string" && TOOL_NAME.test(tool))) continue;
          ctx.addIssue({
            code: "custom",
            message: `line ${e.line}: :${key} ${revealHidden(JSON.stringify(tool).slice(0, 80))} is not a tool name (letters, digits, _; or mcp__server__tool)`,
          });
          return;
        }
    }),
});
export type ImportBatch = z.infer<typeof ImportBatch>;

const QUEUE_EVENTS: Record<string, AuditEventType> = {
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
): DecisionSource | null {
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

/** One log entry as an audit event; every field stays in `detail`, the original time as `detail.occurredAt`. */
export function mevedelEvent(workspaceId: string, entry: ImportBatch["entries"][number], session?: string): AuditEvent {
  const f = entry.fields;
  const event = str(f.event, 100) ?? "permission-decision";
  const o = mevedelOutcome(f.outcome ?? f.decision);
  const type = QUEUE_EVENTS[event] ?? "agent.decision";
  const tool = str(f["tool-name"]) ?? str(f.tool) ?? KIND_TOOL[word(f.kind) ?? ""] ?? null;
  const occurredAt = mevedelTime(f.time ?? f.timestamp);
  return {
    type,
    actor: { type: "agent", label: "mevedel", channel: "import" },
    workspaceId,
    target: str(f["permission-id"]) ?? str(f["request-id"]) ?? str(f["interaction-id"]),
    outcome: o.outcome,
    decisionSource: sourceOf(event, f, o),
    rule: str(f.rule, 10_000),
    store: str(f.bucket, 4096) ?? str(f["rule-bucket"], 4096),
    agent: "mevedel",
    agentSessionId: str(f.session ?? f["session-id"]) ?? session ?? null,
    toolUseId: str(f["tool-use-id"] ?? f["tool-call-id"]),
    cwd: str(f["execution-directory"], 4096),
    tool,
    input: inputOf(f, tool),
    // The log's own fields live under `imported`: none of them can pose as the cockpit's trace, passkey or device.
    detail: {
      imported: {
        ...f,
        ...(o.raw && o.raw !== o.outcome ? { outcomeRaw: o.raw } : {}),
        ...(o.reason !== undefined ? { reason: o.reason } : {}),
        ...(o.feedback !== undefined ? { feedback: o.feedback } : {}),
      },
      event,
      // The cockpit parsed and checked it (an ISO instant), so it may sit beside `at` for the time filter.
      ...(occurredAt ? { occurredAt } : {}),
      loggedAt: str(f.time ?? f.timestamp, 100),
      importedFrom: "mevedel permission-log.el",
      line: entry.line,
      importKey: importKey(workspaceId, entry.key),
    },
  } as AuditEvent;
}

/** The stored dedupe key: the entry's hash bound to the workspace it was imported into. */
export function importKey(workspaceId: string, key: string): string {
  return createHash("sha256").update(`${workspaceId}\n${key}`).digest("hex");
}

/**
 * Appends the batch's entries that are not already in the log (by import key), in one transaction
 * under the append lock, so importing the same file twice adds nothing.
 */
export async function importEntries(
  db: Db,
  workspaceId: string,
  entries: ImportBatch["entries"],
  session?: string,
): Promise<{ imported: number; duplicates: number }> {
  return db.transaction(async (tx) => {
    // Take the append lock first: two imports of the same file can't both miss each other's keys.
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
    const keyed = entries.map((e) => ({ e, k: importKey(workspaceId, e.key) }));
    const keys = [...new Set(keyed.map((x) => x.k))];
    const existing = new Set<string>();
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      const rows = await tx
        .select({ k: sql<string>`${auditEvents.detail}->>'importKey'` })
        .from(auditEvents)
        .where(
          sql`${auditEvents.detail} ? 'importKey' and ${auditEvents.detail}->>'importKey' in (${sql.join(
            chunk.map((k) => sql`${k}`),
            sql`, `,
          )})`,
        );
      for (const r of rows) existing.add(r.k);
    }
    const fresh: AuditEvent[] = [];
    for (const { e, k } of keyed) {
      if (existing.has(k)) continue;
      existing.add(k);
      fresh.push(mevedelEvent(workspaceId, e, session));
    }
    await recordAuditBatch(tx, fresh);
    return { imported: fresh.length, duplicates: entries.length - fresh.length };
  });
}
