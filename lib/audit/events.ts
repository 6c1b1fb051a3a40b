import { z } from "zod";

/** Claude Code's OpenTelemetry `tool_decision` sources, reused for every decision we record. */
export const DECISION_SOURCES = [
  "config",
  "hook",
  "user_temporary",
  "user_permanent",
  "user_reject",
  "user_abort",
] as const;
export type DecisionSource = (typeof DECISION_SOURCES)[number];

export const ACTOR_TYPES = ["user", "local", "agent", "notification", "system", "anonymous"] as const;

/** Who did it: enough to answer "who, with which role, from where". */
export const AuditActor = z.object({
  type: z.enum(ACTOR_TYPES),
  /** Display label kept in the `actor` column ("local-cli", "agent:ci", a person's name). */
  label: z.string().min(1).max(300),
  id: z.string().max(300).nullish(),
  role: z.string().max(50).nullish(),
  session: z.string().max(300).nullish(),
  /** web, cli, ntfy, push, agent, hook, api… */
  channel: z.string().max(50).nullish(),
  address: z.string().max(100).nullish(),
  /** A person's device as their session named it ("Safari on iPhone"); kept in detail.device. */
  device: z.string().max(300).nullish(),
  /** How the person's session signed in (link, invite, pair, passkey); kept in detail.signIn. */
  signIn: z.string().max(50).nullish(),
  /** The passkey that confirmed this action, when one did; kept in detail.passkey. */
  passkey: z.object({ id: z.string().max(1000), name: z.string().max(300) }).nullish(),
});
export type AuditActor = z.infer<typeof AuditActor>;

const Detail = z.record(z.string(), z.unknown());
const CardDetail = Detail;
const EntryDetail = z
  .object({
    scope: z.string().optional(),
    entryAction: z.string().optional(),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
    oldVersion: z.string().nullish(),
    newVersion: z.string().nullish(),
  })
  .catchall(z.unknown());

/**
 * Every event kind the cockpit writes, with the shape of its `detail`. Adding a kind here is the only
 * way to make recordAudit accept it.
 */
export const AUDIT_EVENT_DETAILS = {
  // Card lifecycle (the queue).
  "card.enqueued": CardDetail,
  "card.displayed": CardDetail,
  "card.resolved": CardDetail,
  /** A waiting card a person's new rule now covers, settled by that rule (older rows: also admissions, below). */
  "card.coalesced": CardDetail,
  /**
   * A call the rules decided when the agent asked, so no card was shown (the admission's answer still says
   * `"status": "coalesced"`). Rows written before this event existed are `card.coalesced` with `detail.at: "admission"`.
   */
  "card.decided_by_rules": CardDetail,
  "card.swept": CardDetail,
  "card.expired": CardDetail,
  "card.aborted": CardDetail,
  "card.rule_not_saved": z.object({
    rules: z.array(z.string()),
    error: z.string(),
    inputOmitted: z.number().optional(),
  }),
  "session.hold_ended": Detail,
  // Store edits: before/after rule text and the file's old/new version.
  "entry.added": EntryDetail,
  "entry.revoked": EntryDetail,
  "entry.narrowed": EntryDetail,
  // Settings, collaborators, invites, tokens, webhooks.
  "settings.absence": z.object({ timeoutSeconds: z.number().nullable() }),
  "settings.changed": z.object({ key: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }),
  "notify.allow_hosts": z.object({ hosts: z.array(z.string()) }),
  "notify.push_subscribed": z.object({ origin: z.string() }),
  "notify.action_refused": z.object({ reason: z.string(), tokenHash: z.string() }),
  "workspace.added": z.object({ path: z.string() }),
  "workspace.removed": z.object({ path: z.string() }),
  "collaborator.added": Detail,
  "collaborator.changed": Detail,
  "collaborator.roles_changed": z.object({ name: z.string(), before: z.unknown(), after: z.unknown() }),
  "collaborator.removed": Detail,
  "invite.created": Detail,
  "invite.accepted": Detail,
  "invite.redeemed": Detail,
  "invite.revoked": Detail,
  "passkey.registered": z.object({ name: z.string() }),
  "passkey.renamed": z.object({ name: z.string(), before: z.string().optional() }),
  "passkey.removed": z.object({ name: z.string() }),
  "workspace.settings": z.object({ requirePasskey: z.boolean(), before: z.object({ requirePasskey: z.boolean() }) }),
  "agent_token.created": z.object({ name: z.string() }),
  "agent_token.revoked": Detail,
  "webhook.created": Detail,
  "webhook.updated": z.object({ fields: z.array(z.string()) }),
  "webhook.deleted": Detail,
  "webhook.tested": z.object({ statusCode: z.number().nullable(), ok: z.boolean() }),
  "webhook.redelivered": z.object({ endpointId: z.string(), msgId: z.string() }),
  // Access: logins one row each; refusals summarised (count per window), never one row per request.
  "auth.login_link_created": z.object({ expiresAt: z.string() }),
  "auth.pair_link_created": z.object({ expiresAt: z.string() }),
  "auth.session_ended": z.object({ userId: z.string() }),
  "auth.login": Detail,
  "auth.logout": Detail,
  "auth.refused": z
    .object({ status: z.number(), count: z.number(), from: z.string(), to: z.string() })
    .catchall(z.unknown()),
  // What agents report they decided.
  "agent.pre_tool_use": Detail,
  "agent.post_tool_use": Detail,
  "agent.decision": Detail,
  // The log itself.
  "audit.retention_cut": z.object({ upToSeq: z.number(), deleted: z.number(), anchorHash: z.string() }),
} satisfies Record<string, z.ZodType<Record<string, unknown>>>;

export type AuditEventType = keyof typeof AUDIT_EVENT_DETAILS;
export const AUDIT_EVENT_TYPES = Object.keys(AUDIT_EVENT_DETAILS) as AuditEventType[];

/** The columns every event may fill; see docs/audit.md for their meaning. */
export const AuditEventBase = z.object({
  workspaceId: z.string().max(300).nullish(),
  actor: AuditActor,
  target: z.string().max(1000).nullish(),
  outcome: z.string().max(50).nullish(),
  decisionSource: z.enum(DECISION_SOURCES).nullish(),
  rule: z.string().max(10_000).nullish(),
  store: z.string().max(4096).nullish(),
  agent: z.string().max(100).nullish(),
  agentSessionId: z.string().max(300).nullish(),
  toolUseId: z.string().max(300).nullish(),
  cwd: z.string().max(4096).nullish(),
  tool: z.string().max(300).nullish(),
  /** Raw tool input; recordAudit sanitizes it before it is stored. */
  input: z.record(z.string(), z.unknown()).nullish(),
});
type Base = z.input<typeof AuditEventBase>;

/** A typed audit event: the base columns plus `type` and that type's `detail`. */
export type AuditEvent = {
  [K in AuditEventType]: Base & { type: K; detail?: z.input<(typeof AUDIT_EVENT_DETAILS)[K]> };
}[AuditEventType];

/** Parses an event at the boundary; throws a ZodError naming the bad field. */
export function parseAuditEvent(event: AuditEvent) {
  const base = AuditEventBase.parse(event);
  const schema = AUDIT_EVENT_DETAILS[event.type] as z.ZodType<Record<string, unknown>> | undefined;
  if (!schema) throw new Error(`unknown audit event type "${String(event.type)}"`);
  return { ...base, type: event.type, detail: schema.parse(event.detail ?? {}) };
}
