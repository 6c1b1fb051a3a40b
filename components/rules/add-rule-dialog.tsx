"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { StepUpRetry } from "@/components/collaborators/step-up-retry";
import { AGENT_LIST, agentLabel, STORE_AGENTS, type StoreAgent } from "@/lib/agents";
import { addEntry, unwrap } from "@/lib/client/api";
import styles from "./rules.module.css";
import type { WriteOutcome } from "./write-outcome";

const AGENT_CHOICES = STORE_AGENTS.map((id) => {
  const info = AGENT_LIST.find((a) => a.id === id)!;
  return {
    id,
    label: agentLabel(id),
    files: "addFiles" in info ? info.addFiles : [],
    example: "ruleExample" in info ? info.ruleExample : "",
  };
});

type AgentId = StoreAgent;

/** Author one rule explicitly: agent, scope (global warns), file for JSON agents, action, text. */
export function AddRuleDialog({
  workspace,
  workspacePath,
  onClose,
  onDone,
}: {
  workspace: string;
  workspacePath: string;
  onClose: () => void;
  onDone: (o: WriteOutcome) => void;
}) {
  const [agent, setAgent] = useState<AgentId>(STORE_AGENTS[0]);
  const [scope, setScope] = useState<"workspace" | "global">("workspace");
  const [file, setFile] = useState<string>(AGENT_CHOICES[0]!.files[0]?.file ?? "");
  const [action, setAction] = useState<"allow" | "ask" | "deny">("allow");
  const [rule, setRule] = useState("");
  const current = AGENT_CHOICES.find((a) => a.id === agent)!;
  const showFile = current.files.length > 0 && scope === "workspace";
  const add = useMutation({
    mutationFn: () => unwrap(addEntry({ workspace, agent, scope, action, rule, ...(showFile ? { file } : {}) })),
    onSuccess: ({ result: r }) =>
      onDone({
        message: r.unchanged
          ? `${r.store} already has this rule: nothing written.`
          : `Added to ${r.store}, line ${r.after.line}.`,
        warning:
          r.scopeWarning && !r.unchanged
            ? "This is a global rule: it affects every project that uses this file."
            : undefined,
      }),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    add.mutate();
  };

  return (
    <Dialog
      title="Add a rule"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            form="add-rule-form"
            variant="primary"
            disabled={!rule.trim()}
            busy={add.isPending}
            busyLabel="Adding…"
          >
            Add rule
          </Button>
        </>
      }
    >
      <form id="add-rule-form" className="stack" onSubmit={submit}>
        <div className={`field ${styles.shrink}`}>
          <label htmlFor="add-agent">Agent</label>
          <select
            id="add-agent"
            value={agent}
            onChange={(e) => {
              const next = e.target.value as AgentId;
              setAgent(next);
              setFile(AGENT_CHOICES.find((a) => a.id === next)!.files[0]?.file ?? "");
            }}
          >
            {AGENT_CHOICES.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className={`field ${styles.bare}`}>
          <legend>Scope</legend>
          <div className={styles.radioRow}>
            <label>
              <input
                type="radio"
                name="scope"
                value="workspace"
                checked={scope === "workspace"}
                onChange={() => setScope("workspace")}
              />{" "}
              This workspace
            </label>
            <label>
              <input
                type="radio"
                name="scope"
                value="global"
                checked={scope === "global"}
                onChange={() => setScope("global")}
              />{" "}
              Global
            </label>
          </div>
          {scope === "global" ? (
            <p className={`warning ${styles.flush}`} role="note">
              A global rule goes into your home folder&apos;s settings and affects <strong>every project</strong>, not
              only {workspacePath}.
            </p>
          ) : null}
        </fieldset>
        {showFile ? (
          <div className={`field ${styles.shrink}`}>
            <label htmlFor="add-file">File</label>
            <select id="add-file" value={file} onChange={(e) => setFile(e.target.value)}>
              {current.files.map((f) => (
                <option key={f.file} value={f.file}>
                  {f.file} ({f.note})
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className={`field ${styles.shrink}`}>
          <label htmlFor="add-action">Action</label>
          <select id="add-action" value={action} onChange={(e) => setAction(e.target.value as typeof action)}>
            <option value="allow">allow</option>
            <option value="ask">ask</option>
            <option value="deny">deny</option>
          </select>
        </div>
        <div className={`field ${styles.shrink}`}>
          <label htmlFor="add-rule">Rule</label>
          <input
            id="add-rule"
            className="mono"
            value={rule}
            onChange={(e) => setRule(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            placeholder={current.example}
          />
        </div>
        {add.error ? <StepUpRetry error={add.error} onRetry={() => add.mutate()} /> : null}
      </form>
    </Dialog>
  );
}
