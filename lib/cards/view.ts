import { z } from "zod";
import { foldInput } from "./fold-input";
import type { cards, sessionHolds, workspaces } from "@/db/schema";

const CoveredByView = z.object({ rule: z.string(), store: z.string(), scope: z.string() });

/** One way to remember a call: level, what it covers in words, the rules, the lint's verdict. */
export const RememberOptionView = z.object({
  level: z.enum(["exact", "subcommand", "program", "folder", "suggested"]),
  label: z.string(),
  rules: z.array(z.string()),
  verdict: z.object({ severity: z.enum(["ok", "info", "warning"]), notes: z.array(z.string()) }),
  suggested: z.literal(true).optional(),
  coveredBy: z.array(CoveredByView.nullable()).optional(),
});
export type RememberOptionView = z.infer<typeof RememberOptionView>;

/** What the collaborator API returns for a card; the Cards UI and notifications build on this shape. */
export const CardView = z.object({
  id: z.string(),
  hash: z.string(),
  status: z.enum(["pending", "allowed", "denied", "expired", "aborted", "coalesced"]),
  workspace: z.object({ id: z.string(), name: z.string(), path: z.string() }),
  agent: z.string(),
  sessionId: z.string(),
  rootSessionId: z.string(),
  originPath: z.string(),
  cwd: z.string().nullable(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
  /** Set on lists when `input` is a folded preview: characters/items left out (GET the card for all). */
  inputOmitted: z.number().optional(),
  reason: z.string().nullable(),
  modeBase: z.string(),
  modeEffective: z.string(),
  cause: z.string(),
  warnings: z.array(z.string()),
  safetyCheck: z.boolean(),
  remember: z.object({
    session: z.array(z.string()),
    workspace: z.array(z.string()),
    workspaceStore: z.string().nullable(),
    /** `global`: "always allow" writes a file every project reads (the agent's own don't-ask-again file). */
    workspaceScope: z.enum(["workspace", "global"]).optional(),
    /** Parallel to `workspace`: the existing allow that already covers each rule (absent: none is covered). */
    coveredBy: z.array(z.object({ rule: z.string(), store: z.string(), scope: z.string() }).nullable()).optional(),
    /** Proposed rules that match every input of their tool (the engine's predicate): they need confirmation. */
    wide: z.array(z.string()).optional(),
    /** The remember chooser, narrowest first; the first is the default. Absent on older cards. */
    options: z.array(RememberOptionView).optional(),
  }),
  decision: z.object({ step: z.string(), reason: z.string(), rule: z.string().nullable() }),
  createdAt: z.string(),
  displayedAt: z.string().nullable(),
  /** When the root session's unanswered queue expires (absence timeout), or null. */
  deadline: z.string().nullable(),
  settlement: z
    .object({
      outcome: z.enum(["allow", "deny"]),
      remember: z.enum(["once", "session", "workspace"]),
      message: z.string().nullable(),
      by: z.string(),
      via: z.string(),
      at: z.string(),
      source: z.string(),
      ruleNotSaved: z.string().optional(),
      /** "confirmed with passkey ⟨name⟩" */
      passkey: z.object({ id: z.string(), name: z.string() }).optional(),
      /** What a remembering answer stored and where; `undone` once Undo revoked it. */
      saved: z
        .object({
          level: z.string(),
          rules: z.array(z.string()),
          store: z.string().nullable(),
          undone: z.object({ by: z.string(), at: z.string() }).optional(),
        })
        .optional(),
      /** The answering person's role then: names show it, so "by owner" cannot be a collaborator's chosen name. */
      role: z.string().optional(),
    })
    .nullable(),
});
export type CardView = z.infer<typeof CardView>;

/** The card as lists carry it: a bounded preview of the input (see foldInput). */
export function withFoldedInput(view: CardView): CardView {
  const { input, omitted } = foldInput(view.input);
  return omitted ? { ...view, input, inputOmitted: omitted } : view;
}

type CardRow = typeof cards.$inferSelect;
type WorkspaceRow = Pick<typeof workspaces.$inferSelect, "id" | "name" | "path">;
type HoldRow = Pick<typeof sessionHolds.$inferSelect, "deadlineAt"> | null;

export function toCardView(card: CardRow, workspace: WorkspaceRow, hold: HoldRow): CardView {
  const s = card.settlement;
  return {
    id: card.id,
    hash: card.hash,
    status: card.status,
    workspace: { id: workspace.id, name: workspace.name, path: workspace.path },
    agent: card.agent,
    sessionId: card.agentSessionId,
    rootSessionId: card.rootSessionId,
    originPath: card.originPath,
    cwd: card.cwd ?? null,
    tool: card.tool,
    input: card.input,
    reason: card.modelReason,
    modeBase: card.modeBase,
    modeEffective: card.modeEffective,
    cause: card.cause,
    warnings: card.warnings,
    safetyCheck: card.safetyCheck,
    remember: card.remember,
    decision: card.decision,
    createdAt: card.createdAt.toISOString(),
    displayedAt: card.displayedAt?.toISOString() ?? null,
    deadline: card.status === "pending" && hold?.deadlineAt ? hold.deadlineAt.toISOString() : null,
    settlement:
      s && card.settledAt
        ? {
            outcome: s.outcome,
            remember: s.remember,
            message: s.message,
            by: card.settledBy ?? "unknown",
            via: card.settledVia ?? "unknown",
            at: card.settledAt.toISOString(),
            source: s.source,
            ...(s.ruleNotSaved ? { ruleNotSaved: s.ruleNotSaved } : {}),
            ...(s.passkey ? { passkey: s.passkey } : {}),
            ...(s.saved ? { saved: s.saved } : {}),
            ...(s.role ? { role: s.role } : {}),
          }
        : null,
  };
}
