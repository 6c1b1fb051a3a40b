import { describe, expect, it } from "vitest";
import type { AuditEventView } from "./types";
import { auditSentence } from "./sentence";

function event(over: Partial<AuditEventView>): AuditEventView {
  return {
    seq: 1,
    at: "2026-12-05T08:00:00.000Z",
    type: "card.resolved",
    workspace: "w1",
    actor: { label: "Ada", type: "user", id: "u1", role: "approver", session: null, channel: "web", address: null },
    target: "0b9f0c3e-6a63-4a5e-9a43-2f7f4b6d1c11",
    outcome: null,
    source: null,
    rule: null,
    store: null,
    agent: "claude-code",
    agentSession: "s1",
    toolUseId: null,
    cwd: null,
    tool: "Bash",
    input: null,
    detail: {},
    hash: null,
    ...over,
  };
}

const text = (e: AuditEventView) => {
  const s = auditSentence(e);
  return [s.who, s.verb, s.what && `\`${s.what}\``, s.where].filter(Boolean).join(" ");
};

describe("audit rows as sentences", () => {
  it("says who answered what, with the role and how it was remembered; never the card id", () => {
    const answered = (detail: Record<string, unknown>, outcome = "allow") =>
      text(event({ outcome, input: { command: "terraform destroy" }, detail: { source: "user", ...detail } }));
    expect(answered({ remember: "once" })).toBe("Ada (approver) allowed once `terraform destroy`");
    expect(answered({ remember: "session" })).toBe("Ada (approver) allowed for this session `terraform destroy`");
    expect(answered({ remember: "workspace" })).toBe("Ada (approver) always allowed `terraform destroy`");
    expect(answered({ remember: "once", message: "not now" }, "deny")).toBe(
      "Ada (approver) denied (with a message to the model) `terraform destroy`",
    );
    // Without the call's input the row names the tool, not the card id it targets.
    const bare = text(event({ outcome: "allow", detail: { source: "user", remember: "once" } }));
    expect(bare).toBe("Ada (approver) allowed once the Bash request");
    expect(bare).not.toContain("0b9f0c3e");
  });

  it("names the rule that settled a call, the agent that asked, and what happened without a person", () => {
    const agentActor = { ...event({}).actor, label: "agent:ci", type: "agent", role: null };
    expect(
      text(
        event({
          type: "card.decided_by_rules",
          actor: agentActor,
          outcome: "allow",
          rule: "Bash(npm test:*)",
          input: { command: "npm test -- --grep x" },
        }),
      ),
    ).toBe("Rule Bash(npm test:*) allowed `npm test -- --grep x`");
    // Rows written before card.decided_by_rules: an admission was card.coalesced with `at: "admission"`.
    const older = { actor: agentActor, outcome: "allow", rule: "Bash(npm test:*)", input: { command: "npm test" } };
    expect(text(event({ ...older, type: "card.coalesced", detail: { at: "admission" } }))).toBe(
      "Rule Bash(npm test:*) allowed `npm test`",
    );
    // A waiting card that a rule a person just saved now covers.
    expect(text(event({ ...older, type: "card.coalesced", detail: { source: "policy" } }))).toBe(
      "Rule Bash(npm test:*) (just saved by an answer) allowed `npm test`",
    );
    expect(text(event({ type: "card.enqueued", actor: agentActor, input: { command: "ls" } }))).toBe(
      "Claude Code asked to use Bash `ls`",
    );
    expect(text(event({ type: "card.expired", input: { file_path: "/etc/hosts" }, tool: "Edit" }))).toBe(
      "Nobody answered `/etc/hosts` in time",
    );
    expect(
      text(event({ type: "card.resolved", outcome: "deny", rule: "Bash(rm:*)", detail: { source: "recheck" } })),
    ).toBe("Rule Bash(rm:*) (added meanwhile) denied the Bash request");
  });

  it("store edits name the rule and the file; other events read as verbs with their subject", () => {
    expect(
      text(
        event({
          type: "entry.added",
          rule: "Bash(kubectl delete *)",
          store: "/home/ada/app/.claude/settings.local.json",
          detail: { entryAction: "allow" },
        }),
      ),
    ).toBe("Ada (approver) added the allow rule `Bash(kubectl delete *)` to settings.local.json");
    expect(text(event({ type: "entry.revoked", rule: "Bash(bash:*)", store: "/w/.claude/settings.json" }))).toBe(
      "Ada (approver) revoked the rule `Bash(bash:*)` in settings.json",
    );
    expect(text(event({ type: "workspace.added", detail: { path: "/home/ada/app" } }))).toBe(
      "Ada (approver) added the workspace `/home/ada/app`",
    );
    expect(
      text(event({ type: "invite.revoked", actor: { ...event({}).actor, type: "system", label: "system" } })),
    ).toBe("The cockpit revoked an invite");
    expect(text(event({ type: "some.new_kind" }))).toBe("Ada (approver) some new kind");
  });
});
