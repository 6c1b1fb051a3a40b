"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import {
  createAgentToken,
  revokeAgentToken,
  unwrap,
  type AgentTokenView,
  type WorkspaceOption,
} from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { EXAMPLE_AGENT } from "@/lib/agents";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Time } from "@/components/ui/time";
import { WorkspaceSelect } from "@/components/workspaces/workspace-select";
import { CopyButton } from "./copy-button";
import styles from "./settings.module.css";

type TokenRow = AgentTokenView;

/** Create (shown once), list and revoke the tokens agents use to reach the cockpit, one workspace each. */
export function AgentTokens({ initial, workspaces }: { initial: TokenRow[]; workspaces: WorkspaceOption[] }) {
  const [tokens, setTokens] = useState(initial);
  const [workspaceId, setWorkspaceId] = useState(workspaces[0]?.id ?? "");
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ token: string; name: string; path: string } | null>(null);
  const byId = new Map(workspaces.map((w) => [w.id, w]));
  const create = useMutation({
    mutationFn: () => unwrap(createAgentToken({ workspace: workspaceId, name: name.trim() || undefined })),
    onSuccess: (body) => {
      setTokens((list) => [
        ...list,
        {
          id: body.id,
          name: body.name,
          workspaceId,
          createdAt: new Date().toISOString(),
          lastUsedAt: null,
          revokedAt: null,
        },
      ]);
      setCreated({ token: body.token, name: body.name, path: byId.get(workspaceId)?.path ?? "DIR" });
      setName("");
    },
  });
  const revoke = useMutation({
    mutationFn: (token: TokenRow) => unwrap(revokeAgentToken(token.id)),
    onSuccess: (_r, token) =>
      setTokens((list) => list.map((t) => (t.id === token.id ? { ...t, revokedAt: new Date().toISOString() } : t))),
  });

  const lines = created
    ? `export COCKPIT_TOKEN=${created.token}\nnpx cockpit connect ${EXAMPLE_AGENT.id} --workspace ${created.path}`
    : "";
  return (
    <div className="stack">
      {workspaces.length === 0 ? (
        <p className="muted">
          Register a workspace first (<a href="/workspaces">Workspaces</a>); each token belongs to one.
        </p>
      ) : (
        <form
          className={`row ${styles.bottom}`}
          aria-label="Create an agent token"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <div className="field">
            <WorkspaceSelect
              id="token-workspace"
              workspaces={workspaces}
              value={workspaceId}
              onChange={setWorkspaceId}
            />
          </div>
          <div className="field">
            <label htmlFor="token-name">Name (optional)</label>
            <input
              id="token-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="laptop claude"
              maxLength={100}
              autoComplete="off"
            />
          </div>
          <Button variant="primary" type="submit" disabled={!workspaceId} busy={create.isPending}>
            Create token
          </Button>
        </form>
      )}
      {created ? (
        <div className={`notice stack ${styles.created}`} role="status" data-testid="new-token">
          <strong>Token &ldquo;{created.name}&rdquo; created. Copy it now: it is shown only once.</strong>
          <div className="row">
            <code className={styles.tokenValue} data-testid="token-value">
              {created.token}
            </code>
            <CopyButton text={created.token} label="Copy token" />
          </div>
          <span>In the workspace, connect Claude Code:</span>
          <pre className={styles.commands}>{lines}</pre>
          <div className="row">
            <CopyButton text={lines} label="Copy commands" />
            <Button onClick={() => setCreated(null)}>Done</Button>
          </div>
        </div>
      ) : null}
      {(create.error ?? revoke.error) ? <Alert>{(create.error ?? revoke.error)!.message}</Alert> : null}
      {revoke.isSuccess ? <Notice>Revoked {revoke.variables.name}</Notice> : null}
      {tokens.length === 0 ? (
        <p className="muted">No agent tokens yet.</p>
      ) : (
        <ul className={styles.tokenList} aria-label="Agent tokens">
          {[...tokens].reverse().map((t) => {
            const ws = byId.get(t.workspaceId);
            return (
              <li key={t.id} className={styles.token} data-testid="agent-token">
                <div className={styles.tokenInfo}>
                  <strong>{t.name}</strong>{" "}
                  {t.revokedAt ? <span className="tag bad">revoked</span> : <span className="tag ok">active</span>}
                  <div className={`mono muted ${styles.small}`}>{ws ? ws.path : t.workspaceId}</div>
                  <div className={`muted ${styles.small}`}>
                    created <Time iso={t.createdAt} /> · last used{" "}
                    {t.lastUsedAt ? <Time iso={t.lastUsedAt} /> : "never"}
                  </div>
                </div>
                {t.revokedAt ? null : (
                  <Button
                    busy={revoke.isPending && revoke.variables?.id === t.id}
                    aria-label={`Revoke ${t.name}`}
                    onClick={() => {
                      if (
                        window.confirm(
                          `Revoke "${t.name}"? Agents using it can no longer reach the cockpit; their prompts fall back to the terminal.`,
                        )
                      )
                        revoke.mutate(t);
                    }}
                  >
                    Revoke
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
