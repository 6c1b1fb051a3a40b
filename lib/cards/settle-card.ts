import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { cards, workspaces, type CardSettlement } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { can, requireCan } from "@/lib/auth/access";
import { actorLabel, answersAsPerson, PERSON_ONLY, type Actor, type Role } from "@/lib/auth/actor";
import { recheckAnswerRight } from "@/lib/auth/recheck";
import { ConflictError, ForbiddenError, UnprocessableError } from "@/lib/errors";
import { PasskeyAssertion, requireFreshPasskey, verifyApprovalAssertion } from "@/lib/auth/passkeys";
import { addSessionEntry } from "@/lib/session-entries/session-entries";
import { publishCardChange } from "./bus";
import { coalesceSiblings } from "./coalesce-siblings";
import { getCardRow, getCardUnchecked } from "./get-card";
import { allowFromCockpit, rulesAgentOf, type StoreAgent } from "@/lib/agents";
import { engineOf } from "@/lib/agents/registry";
import { addEntryAudited } from "@/lib/entries/write-entry";
import { cardStorePaths, evaluateCall, type CardEnv } from "./policy";
import { chosenRemember, REMEMBER_CHOICES, type ChosenRemember } from "./remember-choice";
import { auditedCall } from "./events";
import { conflictFor, settleOnce } from "./settle-common";
import type { CardView } from "./view";

type CardRow = typeof cards.$inferSelect;
type Workspace = typeof workspaces.$inferSelect;

export const ANSWER_CLIENTS = ["web", "ntfy", "push", "cli"] as const;
type AnswerClient = (typeof ANSWER_CLIENTS)[number];

export const SettleCardInput = z.object({
  outcome: z.enum(["allow", "deny"]),
  remember: z.enum(["once", "session", "workspace"]).default("once"),
  message: z.string().trim().max(5000).optional(),
  hash: z.string().regex(/^[0-9a-f]{64}$/, "the card's hash, as the card view shows it"),
  /** A WebAuthn assertion over a challenge from passkey-options (bound to this card, outcome and scope); required where approvals need a passkey. */
  passkey: PasskeyAssertion.optional(),
  /** The person saw the warning that an Always-allow rule allows every use of the tool, and chose it. */
  confirmToolWide: z.boolean().optional(),
  /** Which of the card's remember options to store (`remember.options[].level`); default the first, narrowest. */
  choice: z.enum(REMEMBER_CHOICES).optional(),
});
export type SettleCardInput = z.infer<typeof SettleCardInput>;

export interface SettleCardResult {
  card: CardView;
  /** Set when "always allow" settled the card but the rule could not be written to the store. */
  ruleNotSaved?: string;
  coalesced: string[];
}

/** The passkey that confirmed an answer, when the workspace's approvals need one. */
type ConfirmedWith = { id: string; name: string } | undefined;

/** What every step after the checks works on: the card, its workspace, who answers with which role, and what. */
interface Answer {
  db: Db;
  actor: Actor;
  card: CardRow;
  workspace: Workspace;
  role: Role;
  input: SettleCardInput;
  chosen: ChosenRemember;
  confirmedWith: ConfirmedWith;
  client: AnswerClient;
  env: CardEnv;
}

/**
 * A human answer. The first valid answer wins through one conditional UPDATE; every later one gets
 * 409 naming who settled it and when. An approval re-checks current policy first: a deny rule added
 * since admission wins. Remembered rules go to the session table (same transaction) or, after the
 * decision is committed, to the agent's workspace store file. Each step below is one function.
 */
export async function settleCard({
  db,
  actor,
  cardId,
  input,
  client,
  env = {},
}: {
  db: Db;
  actor: Actor;
  cardId: string;
  input: SettleCardInput;
  client: AnswerClient;
  env?: CardEnv;
}): Promise<SettleCardResult> {
  const { card, role } = await loadAnswerableCard(db, actor, cardId, input);
  const chosen = await checkRemember(db, actor, card, input);
  const workspace = await cardWorkspace(db, card.workspaceId);
  const confirmedWith = await confirmPasskey(db, actor, card, workspace, input);
  const answer: Answer = { db, actor, card, workspace, role, input, chosen, confirmedWith, client, env };
  const settlement = await recheckPolicy(answer, settlementOf(answer));
  const won = await settleAndRememberForSession(answer, settlement);
  publishCardChange({ type: "resolved", cardId, workspaceId: card.workspaceId, status: won.status });
  const { ruleCreated, ruleNotSaved } = await writeRememberedRule(answer, settlement);
  const coalesced = ruleCreated ? await settleSiblings(answer, settlement) : [];
  return { card: await getCardUnchecked(db, cardId), ruleNotSaved, coalesced };
}

/**
 * Load and check: only a person (or a notification's single-use action) answers, never the CLI credential or an
 * agent token; a card outside the actor's workspaces is absent (404), one they see but may not answer is 403; the
 * card must still be pending and be the one the person saw (its hash); an allow must be one the agent can act on.
 */
async function loadAnswerableCard(
  db: Db,
  actor: Actor,
  cardId: string,
  input: SettleCardInput,
): Promise<{ card: CardRow; role: Role }> {
  if (!answersAsPerson(actor)) throw new ForbiddenError(`answering a card ${PERSON_ONLY}`);
  const card = await getCardRow(db, { actor, cardId });
  const role = requireCan(actor, "card.answer", card.workspaceId);
  if (card.status !== "pending") throw await conflictFor(db, card);
  if (input.hash !== card.hash)
    throw new ConflictError("the card changed; reload", { card: await getCardUnchecked(db, cardId) });
  // An agent whose hook cannot approve (it ignores a hook's allow): an allow here would approve nothing.
  const allowable = allowFromCockpit(card.agent);
  if (input.outcome === "allow" && !allowable.ok) throw new UnprocessableError(allowable.note);
  return { card, role };
}

/**
 * What a remembering answer may store: the chosen option, refused for safety checks, denies and options with
 * nothing new; a global store needs the role everywhere; a tool-wide rule needs confirmation, the admin role and a
 * fresh passkey (the same act as adding it on the Rules page).
 */
async function checkRemember(db: Db, actor: Actor, card: CardRow, input: SettleCardInput): Promise<ChosenRemember> {
  const chosen = chosenRemember(card.remember, input.remember === "once" ? undefined : input.choice);
  if (input.remember === "once") return chosen;
  if (card.safetyCheck) throw new UnprocessableError("this is a safety check: it can only be allowed once or denied");
  if (input.outcome === "deny")
    throw new UnprocessableError('a deny is not remembered; answer deny with remember "once"');
  if (chosen.rules.length === 0)
    throw new UnprocessableError(`nothing can be remembered for this request; allow it once instead`);
  // An agent whose own "don't ask again" writes a file in the user's home: that file governs every workspace.
  if (input.remember === "workspace" && card.remember.workspaceScope === "global") {
    const everywhere = can(actor, "card.answer", null);
    if (!everywhere.ok)
      throw new ForbiddenError(
        `"Always allow" writes ${card.remember.workspaceStore ?? "a global store"}, which every workspace reads: it needs the ${everywhere.needed} role on all workspaces`,
        { needed: everywhere.needed },
      );
  }
  const covered = input.remember === "workspace" ? chosen.coveredBy : [];
  const first = covered.find((c) => c);
  if (first && covered.length === chosen.rules.length && covered.every(Boolean))
    throw new UnprocessableError(
      `already allowed by ${first.rule} in ${first.store}: nothing new to save; allow it once instead`,
    );
  // The engine's own predicate, recomputed now (not the admission-time copy the browser shows).
  const engine = await engineOf(card.agent);
  const wideFlags = await Promise.all(chosen.rules.map((r, i) => (covered[i] ? false : engine.isToolWide(r))));
  const wide = chosen.rules.filter((_, i) => wideFlags[i]);
  if (wide.length && input.remember === "session")
    throw new UnprocessableError(
      `${wide.join(", ")} would allow every use of the tool; only Always allow can store it, with confirmation`,
    );
  if (wide.length && !input.confirmToolWide)
    throw new UnprocessableError(
      `${wide.join(", ")} would allow every use of the tool; confirm the tool-wide rule (confirmToolWide) or allow once`,
    );
  // An approver's Always allow writes the engine's narrow rule for this one call. A tool-wide one is the same act
  // as adding a tool-wide rule on the Rules page: the admin role there and a fresh passkey step-up.
  if (wide.length) {
    requireCan(actor, "entry.add", card.workspaceId);
    await requireFreshPasskey(db, actor, "an Always allow for every use of the tool");
  }
  return chosen;
}

async function cardWorkspace(db: Db, workspaceId: string): Promise<Workspace> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return workspace!;
}

/**
 * "Approvals need a passkey": only a person's passkey over exactly this card, outcome and scope answers; verified
 * before anything settles. Not a cookie alone, not the CLI, not an agent or notification token.
 */
async function confirmPasskey(
  db: Db,
  actor: Actor,
  card: CardRow,
  workspace: Workspace | undefined,
  input: SettleCardInput,
): Promise<ConfirmedWith> {
  if (!workspace?.requirePasskey) return undefined;
  if (actor.kind !== "user")
    throw new ForbiddenError("this workspace's approvals need a passkey: answer from the cockpit in a browser", {
      needsPasskey: true,
    });
  if (!input.passkey)
    throw new ForbiddenError("this workspace's approvals need a passkey: confirm the answer with your passkey", {
      needsPasskey: true,
    });
  const verified = await verifyApprovalAssertion(db, {
    actor,
    cardId: card.id,
    cardHash: card.hash,
    outcome: input.outcome,
    remember: input.remember,
    assertion: input.passkey,
  });
  return { id: verified.credentialId, name: verified.name };
}

/** The rules an allow saves: for the session every chosen rule, for the store those no existing allow covers. */
function rulesToSave({ chosen }: Answer, remember: SettleCardInput["remember"]): string[] {
  return remember === "session" ? chosen.rules : chosen.rules.filter((_, i) => !chosen.coveredBy[i]);
}

/** Decide the answer: the person's outcome, what it remembers and where, with the role and passkey it was given with. */
function settlementOf(answer: Answer): CardSettlement {
  const { input, role, confirmedWith, chosen, card } = answer;
  return {
    outcome: input.outcome,
    remember: input.remember,
    message: input.message || null,
    source: "user",
    role,
    ...(confirmedWith ? { passkey: confirmedWith } : {}),
    ...(input.outcome === "allow" && input.remember !== "once"
      ? {
          saved: {
            level: chosen.level,
            rules: rulesToSave(answer, input.remember),
            store: input.remember === "workspace" ? card.remember.workspaceStore : null,
          },
        }
      : {}),
  };
}

/** An approval re-checks current policy: a deny rule added since admission turns it into a deny, once. */
async function recheckPolicy(answer: Answer, settlement: CardSettlement): Promise<CardSettlement> {
  const { db, card, workspace, confirmedWith, role, env } = answer;
  if (settlement.outcome !== "allow") return settlement;
  const { decision } = await evaluateCall(
    db,
    card.workspaceId,
    {
      agent: card.agent,
      workspacePath: workspace.path,
      rootSessionId: card.rootSessionId,
      mode: card.modeBase,
      cwd: card.cwd,
      call: { tool: card.tool, input: card.input },
      agentAsked: card.agentAsked,
    },
    env,
  );
  if (decision.decision !== "deny") return settlement;
  return {
    ...(confirmedWith ? { passkey: confirmedWith } : {}),
    outcome: "deny",
    remember: "once",
    message: decision.reason,
    source: "recheck",
    role,
    rule: decision.rule,
  };
}

/**
 * Settle once, with its audit row, and the session rules, in one transaction: rights are re-read inside it (a
 * collaborator removed or lowered since the request began is refused and nothing settles); a card someone else
 * settled first is a 409 naming them.
 */
async function settleAndRememberForSession(answer: Answer, settlement: CardSettlement): Promise<CardRow> {
  const { db, actor, card, role, confirmedWith, client, chosen, env } = answer;
  const who = actorLabel(actor);
  const now = env.now?.() ?? new Date();
  const won = await db.transaction(async (tx) => {
    await recheckAnswerRight(tx, actor, card.workspaceId);
    const row = await settleOnce(tx, {
      card,
      status: settlement.outcome === "allow" ? "allowed" : "denied",
      by: who,
      via: client,
      settlement,
      event: "resolved",
      now,
      human: true,
      auditActor: auditActor(actor, {
        workspaceId: card.workspaceId,
        role,
        passkey: confirmedWith,
        ...(actor.kind === "notification" ? { channel: client } : {}),
      }),
    });
    if (!row) return null;
    if (settlement.outcome === "allow" && settlement.remember === "session") {
      for (const rule of chosen.rules) {
        await addSessionEntry(tx, {
          actorName: who,
          input: {
            workspaceId: card.workspaceId,
            agentSessionId: card.rootSessionId,
            agent: rulesAgentOf(card.agent) as StoreAgent,
            action: "allow",
            rule,
          },
        });
      }
    }
    return row;
  });
  if (won) return won;
  const [latest] = await db.select().from(cards).where(eq(cards.id, card.id));
  throw await conflictFor(db, latest!);
}

/**
 * Write the remembered rule: an "always allow" goes to the agent's store through the Rules page's write-and-audit
 * path (the entry.added row with both versions), after the decision is committed. If the store refuses (symlink,
 * invalid file, concurrent edit…) the approval stands as allow-once and says why. A session rule was written with
 * the settlement.
 */
async function writeRememberedRule(
  answer: Answer,
  settlement: CardSettlement,
): Promise<{ ruleCreated: boolean; ruleNotSaved?: string }> {
  if (settlement.outcome !== "allow" || settlement.remember === "once") return { ruleCreated: false };
  if (settlement.remember === "session") return { ruleCreated: true };
  const { db, actor, card, role, chosen, workspace, env } = answer;
  try {
    for (const [i, rule] of chosen.rules.entries()) {
      if (chosen.coveredBy[i]) continue; // an existing allow already covers it: no redundant copy
      await addEntryAudited(db, {
        auditActor: auditActor(actor, { workspaceId: card.workspaceId, role }),
        actorName: actorLabel(actor),
        workspaceId: card.workspaceId,
        paths: cardStorePaths(workspace.path, env),
        agent: rulesAgentOf(card.agent),
        scope: card.remember.workspaceScope ?? "workspace",
        action: "allow",
        rule,
        extra: { cardId: card.id },
      });
    }
    return { ruleCreated: true };
  } catch (error) {
    const ruleNotSaved = `the rule was not saved to ${card.remember.workspaceStore ?? "the workspace store"}: ${(error as Error).message}`;
    await recordRuleNotSaved(answer, settlement, ruleNotSaved, (error as Error).message);
    return { ruleCreated: false, ruleNotSaved };
  }
}

/** Audit a refused store write: the card's settlement becomes allow-once with the reason, and a card.rule_not_saved row. */
async function recordRuleNotSaved(
  { db, actor, card, role, chosen }: Answer,
  settlement: CardSettlement,
  ruleNotSaved: string,
  error: string,
): Promise<void> {
  const call = auditedCall({ tool: card.tool, input: card.input });
  await db.transaction(async (tx) => {
    await tx
      .update(cards)
      .set({ settlement: { ...settlement, remember: "once", saved: undefined, ruleNotSaved } })
      .where(eq(cards.id, card.id));
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId: card.workspaceId, role }),
      type: "card.rule_not_saved",
      target: card.id,
      workspaceId: card.workspaceId,
      agent: card.agent,
      agentSessionId: card.agentSessionId,
      tool: call.tool,
      input: call.input,
      detail: { rules: chosen.rules, error, ...call.omitted },
    });
  });
}

/** Settle the session's other pending cards the new rule now decides (lib/cards/coalesce-siblings.ts). */
function settleSiblings(answer: Answer, settlement: CardSettlement): Promise<string[]> {
  const { db, card, env } = answer;
  return coalesceSiblings(db, {
    workspaceId: card.workspaceId,
    rootSessionId: card.rootSessionId,
    exceptId: card.id,
    savedRules: rulesToSave(answer, settlement.remember),
    env,
  });
}
