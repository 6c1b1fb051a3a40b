import { agentLabel } from "@/lib/agents";
import type { AuditEventView } from "./types";

/** An audit row as a sentence: who did what to which command, rule or thing; the raw type stays in the details. */
export interface AuditSentence {
  who: string;
  verb: string;
  /** The command, path, rule or name it was about (shown as code), if any. */
  what: string | null;
  /** After the subject: the file a rule went to, "in time". */
  where?: string;
}

const OTHER: Record<string, string> = {
  "session.hold_ended": "wrote to the agent again: the absence hold ended",
  "settings.absence": "changed the absence timeout",
  "settings.changed": "changed a setting",
  "notify.allow_hosts": "changed the allowed private hosts",
  "notify.push_subscribed": "turned on push notifications on a device",
  "notify.action_refused": "had a notification action refused",
  "workspace.added": "added the workspace",
  "workspace.removed": "removed the workspace",
  "workspace.settings": "changed the workspace's settings",
  "collaborator.added": "added a collaborator",
  "collaborator.changed": "changed a collaborator",
  "collaborator.roles_changed": "changed the roles of",
  "collaborator.removed": "removed a collaborator",
  "invite.created": "created an invite",
  "invite.accepted": "accepted an invite",
  "invite.redeemed": "joined with an invite",
  "invite.revoked": "revoked an invite",
  "passkey.registered": "added the passkey",
  "passkey.renamed": "renamed a passkey to",
  "passkey.removed": "removed the passkey",
  "agent_token.created": "created the agent token",
  "agent_token.revoked": "revoked an agent token",
  "webhook.created": "added a webhook",
  "webhook.updated": "changed a webhook",
  "webhook.deleted": "deleted a webhook",
  "webhook.tested": "sent a test to a webhook",
  "webhook.redelivered": "redelivered a webhook message",
  "auth.login_link_created": "created a login link",
  "auth.pair_link_created": "created a phone pairing link",
  "auth.session_ended": "ended a session",
  "auth.login": "signed in",
  "auth.logout": "signed out",
  "auth.refused": "was refused",
  "audit.retention_cut": "deleted old audit events (retention)",
};

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
/** Ids (uuids, card ids) say nothing to a reader: they stay in the details. */
const looksLikeId = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(v) || /^[A-Za-z0-9_-]{20,}$/.test(v);
const base = (file: string) => file.split(/[\\/]/).pop() ?? file;

function person(e: AuditEventView): string {
  if (e.actor.type === "user" && e.actor.role) return `${e.actor.label} (${e.actor.role})`;
  if (e.actor.type === "system") return "The cockpit";
  return e.actor.label;
}

/** The call's subject: command, path, URL or pattern from its input; never an id. */
function subject(e: AuditEventView): string | null {
  const i = e.input ?? {};
  const v = str(i.command) ?? str(i.file_path) ?? str(i.path) ?? str(i.url) ?? str(i.pattern) ?? str(i.specifier);
  return v;
}

function about(e: AuditEventView): string | null {
  const d = e.detail;
  const named = str(d.path) ?? str(d.name) ?? str(d.url) ?? str(d.key);
  if (named) return named;
  if (e.target && !looksLikeId(e.target)) return e.target;
  return null;
}

export function auditSentence(e: AuditEventView): AuditSentence {
  const who = person(e);
  const agent = e.agent ? agentLabel(e.agent) : who;
  const tool = e.tool ?? "a tool";
  const call = subject(e);
  // Lifecycle rows without the call's input still name the tool: "allowed once the Bash request".
  const on = (verb: string): Pick<AuditSentence, "verb" | "what"> =>
    call ? { verb, what: call } : { verb: `${verb} the ${tool} request`, what: null };
  const allowed = e.outcome === "allow";
  const ruleName = e.rule ? `Rule ${e.rule}` : "A rule";
  switch (e.type) {
    case "card.enqueued":
      return { who: agent, verb: `asked to use ${tool}`, what: call };
    case "card.displayed":
      return { who, ...on("saw") };
    case "card.resolved": {
      if (e.detail.source === "recheck")
        return { who: `${ruleName} (added meanwhile)`, ...on(allowed ? "allowed" : "denied") };
      const remember = e.detail.remember;
      const verb = !allowed
        ? e.detail.message
          ? "denied (with a message to the model)"
          : "denied"
        : remember === "workspace"
          ? "always allowed"
          : remember === "session"
            ? "allowed for this session"
            : "allowed once";
      return { who, ...on(verb) };
    }
    case "card.decided_by_rules":
      return { who: ruleName, ...on(allowed ? "allowed" : "denied") };
    case "card.coalesced":
      // Rows from before card.decided_by_rules used this name for admissions too (`detail.at: "admission"`).
      if (e.detail.at === "admission") return { who: ruleName, ...on(allowed ? "allowed" : "denied") };
      return { who: `${ruleName} (just saved by an answer)`, ...on(allowed ? "allowed" : "denied") };
    case "card.swept":
      return { who: "The absence timeout", ...on("denied") };
    case "card.expired":
      return { who: "Nobody", ...on("answered"), where: "in time" };
    case "card.aborted":
      return { who: agent, ...on("stopped waiting for") };
    case "card.rule_not_saved":
      return { who: "The cockpit", ...on("could not save the rule for") };
    case "entry.added":
    case "entry.revoked":
    case "entry.narrowed": {
      const action = str(e.detail.entryAction);
      const kind = action ? `the ${action} rule` : "the rule";
      const verb =
        e.type === "entry.added"
          ? `added ${kind}`
          : e.type === "entry.revoked"
            ? `revoked ${kind}`
            : `narrowed ${kind}`;
      const file = e.store ? `${e.type === "entry.added" ? "to" : "in"} ${base(e.store)}` : undefined;
      return { who, verb, what: e.rule, where: file };
    }
    case "agent.pre_tool_use":
      return { who: agent, verb: `is about to use ${tool}`, what: call };
    case "agent.post_tool_use":
      return { who: agent, verb: `used ${tool}`, what: call };
    case "agent.decision":
      return { who: agent, verb: `reported ${e.outcome ? `"${e.outcome}"` : "a decision"} for ${tool}`, what: call };
  }
  const verb = OTHER[e.type] ?? e.type.replace(/[._]/g, " ");
  return { who, verb, what: about(e) };
}
