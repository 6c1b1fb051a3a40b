import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { AUDIT_LOCK_KEY } from "./head";
import { recordAuditBatch } from "./record";
import type { AuditEvent, AuditEventType, DecisionSource } from "./events";
import { TOOL_NAME } from "@/lib/cards/tool-input";
import { revealHidden } from "@/lib/text/reveal";

/** One batch the CLI streams to the owner-only import route. */
export const ImportBatch = z.object({
  workspace: z.string().trim().min(1).max(4096),
  source: z.literal("mevedel"),
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
      for (const e of entries) {
        const tool = e.fields.tool;
        if (tool === undefined || (typeof tool === "string" && TOOL_NAME.test(tool))) continue;
        ctx.addIssue({
          code: "custom",
          message: `line ${e.line}: tool ${revealHidden(JSON.stringify(tool).slice(0, 80))} is not a tool name (letters, digits, _; or mcp__server__tool)`,
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

/** mevedel's outcome words to the cockpit's allow / deny / ask. */
function outcomeOf(f: Record<string, unknown>): string | null {
  const o = str(f.outcome ?? f.decision, 50);
  if (!o) return null;
  if (/^(allow|allowed|approve|approved|accept|accepted)$/.test(o)) return "allow";
  if (/^(deny|denied|reject|rejected|block|blocked)$/.test(o)) return "deny";
  if (/^(ask|prompt)$/.test(o)) return "ask";
  return o;
}

/** The decision source in Claude Code's `tool_decision` vocabulary. */
function sourceOf(event: string, f: Record<string, unknown>, outcome: string | null): DecisionSource | null {
  const settlement = str(f["settlement-source"], 50);
  if (event === "permission-aborted") return "user_abort";
  if (settlement === "hook" || f.origin === "hook") return "hook";
  if (event === "permission-resolved" || settlement === "user") {
    if (outcome === "deny") return "user_reject";
    const lifetime = str(f["approval-lifetime"], 50);
    return lifetime === "workspace" || lifetime === "persistent" || lifetime === "global"
      ? "user_permanent"
      : "user_temporary";
  }
  if (event === "permission-decision" || event === "permission-coalesced") return "config";
  return null;
}

/** One log entry as an audit event; the original time and every field stay in `detail`. */
export function mevedelEvent(workspaceId: string, entry: ImportBatch["entries"][number]): AuditEvent {
  const f = entry.fields;
  const event = str(f.event, 100) ?? "permission-decision";
  const outcome = outcomeOf(f);
  const type = QUEUE_EVENTS[event] ?? "agent.decision";
  const specifier = str(f.specifier, 4000);
  return {
    type,
    actor: { type: "agent", label: "mevedel", channel: "import" },
    workspaceId,
    target: str(f["permission-id"]) ?? str(f["request-id"]),
    outcome,
    decisionSource: sourceOf(event, f, outcome),
    rule: str(f.rule, 10_000),
    store: str(f["rule-bucket"], 4096),
    agent: "mevedel",
    agentSessionId: str(f.session ?? f["session-id"]),
    toolUseId: str(f["tool-call-id"] ?? f["tool-use-id"]),
    tool: str(f.tool),
    input: specifier ? { specifier } : null,
    // The log's own fields live under `imported`: none of them can pose as the cockpit's trace, passkey or device.
    detail: {
      imported: f,
      event,
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
      fresh.push(mevedelEvent(workspaceId, e));
    }
    await recordAuditBatch(tx, fresh);
    return { imported: fresh.length, duplicates: entries.length - fresh.length };
  });
}
