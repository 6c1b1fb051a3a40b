import "server-only";
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { cards, workspaces } from "@/db/schema";
import { publishCardChange } from "./bus";
import { rulesAgentOf } from "@/lib/agents";
import type { AgentSnapshot } from "@/lib/agents/types";
import { evaluateWith } from "@/lib/policy-runtime/pipeline";
import { cardSnapshot, type CardEnv } from "./policy";
import { settleOnce } from "./settle-common";

/**
 * After a rule-creating answer, re-runs policy over the root session's other queued cards and settles those
 * it now decides: allow only through an explicit rule (see `forAskedCall`), never a safety check; deny always.
 */
export async function coalesceSiblings(
  db: Db,
  {
    workspaceId,
    rootSessionId,
    exceptId,
    savedRules,
    env = {},
  }: {
    workspaceId: string;
    rootSessionId: string;
    exceptId?: string;
    /** The rules the person just saved: the only file rules that may settle a card the agent itself asked. */
    savedRules?: readonly string[];
    env?: CardEnv;
  },
): Promise<string[]> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) return [];
  const siblings = await db
    .select()
    .from(cards)
    .where(
      and(
        eq(cards.workspaceId, workspaceId),
        eq(cards.rootSessionId, rootSessionId),
        eq(cards.status, "pending"),
        exceptId ? ne(cards.id, exceptId) : undefined,
      ),
    )
    .orderBy(asc(cards.createdAt));
  const settled: string[] = [];
  // One snapshot for all siblings (per agent whose rules decide): the stores are read at most once here.
  const snapshots = new Map<string, Promise<AgentSnapshot>>();
  const snapshotFor = (agent: string) => {
    const key = rulesAgentOf(agent);
    let snap = snapshots.get(key);
    if (!snap) {
      snap = cardSnapshot(db, workspaceId, { agent, workspacePath: workspace.path, rootSessionId }, env);
      snapshots.set(key, snap);
    }
    return snap;
  };
  for (const card of siblings) {
    const { decision: d } = evaluateWith(await snapshotFor(card.agent), {
      mode: card.modeBase,
      cwd: card.cwd,
      call: { tool: card.tool, input: card.input },
      agentAsked: card.agentAsked,
      savedRules,
    });
    if (d.decision === "ask") continue;
    // A safety check is answered by a person; a rule may still tighten it to deny.
    if (card.safetyCheck && d.decision !== "deny") continue;
    const now = env.now?.() ?? new Date();
    const row = await db.transaction((tx) =>
      settleOnce(tx, {
        card,
        status: "coalesced",
        by: "policy",
        via: "policy",
        settlement: {
          outcome: d.decision as "allow" | "deny",
          remember: "once",
          message: d.decision === "deny" ? d.reason : null,
          source: "policy",
          rule: d.rule,
        },
        event: "coalesced",
        now,
        human: false,
      }),
    );
    if (row) {
      settled.push(row.id);
      publishCardChange({ type: "coalesced", cardId: row.id, workspaceId, status: "coalesced" });
    }
  }
  return settled;
}
