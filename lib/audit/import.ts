import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { AUDIT_LOCK_KEY } from "./head";
import { recordAuditBatch } from "./record";
import type { AuditEvent, AuditEventType, DecisionSource } from "./events";
import { AUDIT_LOG_AGENTS, agentInfo, type AuditLogAgent } from "@/lib/agents";
import { auditLogOf } from "@/lib/agents/registry";
import type { AgentAuditLog, AuditLogEntry } from "@/lib/agents/types";
import { TOOL_NAME } from "@/lib/policy/tools";
import { revealHidden } from "@/lib/text/reveal";

/** One batch the CLI streams to the owner-only import route. */
export const ImportBatch = z
  .object({
    workspace: z.string().trim().min(1).max(4096),
    /** The agent whose log it is: an agent that keeps one (`AgentInfo.auditLog`). */
    source: z.literal(AUDIT_LOG_AGENTS),
    /** The agent session the log belongs to (an agent may keep one log per session folder); entries may name their own. */
    session: z.string().trim().min(1).max(300).optional(),
    entries: z
      .array(
        z.object({
          line: z.number().int().min(1),
          key: z.string().regex(/^[0-9a-f]{64}$/),
          fields: z.record(z.string(), z.unknown()),
        }),
      )
      .max(5000),
  })
  .superRefine((batch, ctx) => {
    // Tool names follow the agents' grammar, as on the card and events APIs (no hidden characters).
    const toolFields = agentInfo(batch.source)?.auditLog?.toolFields ?? [];
    for (const e of batch.entries)
      for (const key of toolFields) {
        const tool = e.fields[key];
        if (tool === undefined || (typeof tool === "string" && TOOL_NAME.test(tool))) continue;
        ctx.addIssue({
          code: "custom",
          path: ["entries"],
          message: `line ${e.line}: :${key} ${revealHidden(JSON.stringify(tool).slice(0, 80))} is not a tool name (letters, digits, _; or mcp__server__tool)`,
        });
        return;
      }
  });
export type ImportBatch = z.infer<typeof ImportBatch>;

/** One log entry as an audit event: the agent's reading of it, plus who imported it, where, and its import key. */
export function importedEvent(
  log: AgentAuditLog,
  agent: AuditLogAgent,
  workspaceId: string,
  entry: AuditLogEntry,
  session?: string,
): AuditEvent {
  const event = log.toEvent(entry, session);
  // The agent interface's vocabulary is part of the audit log's (these assignments check it at compile time).
  const type: AuditEventType = event.type;
  const decisionSource: DecisionSource | null = event.decisionSource;
  return {
    ...event,
    type,
    decisionSource,
    actor: { type: "agent", label: agent, channel: "import" },
    workspaceId,
    agent,
    detail: { ...event.detail, importKey: importKey(workspaceId, entry.key) },
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
  into: { workspaceId: string; agent: AuditLogAgent; session?: string },
  entries: ImportBatch["entries"],
): Promise<{ imported: number; duplicates: number }> {
  const { workspaceId, agent, session } = into;
  const log = await auditLogOf(agent);
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
      fresh.push(importedEvent(log, agent, workspaceId, e, session));
    }
    await recordAuditBatch(tx, fresh);
    return { imported: fresh.length, duplicates: entries.length - fresh.length };
  });
}
