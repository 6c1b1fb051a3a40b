"use client";
import { useState } from "react";
import { CopyButton } from "./copy-button";
import { createAgentToken, revokeAgentToken, type AgentTokenView, type WorkspaceOption } from "@/lib/client/api";
import { WorkspaceSelect } from "@/components/workspaces/workspace-select";

type TokenRow = AgentTokenView;

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "never";

/** Create (shown once), list and revoke the tokens agents use to reach the cockpit, one workspace each. */
export function AgentTokens({ initial, workspaces }: { initial: TokenRow[]; workspaces: WorkspaceOption[] }) {
  const [tokens, setTokens] = useState(initial);
  const [workspaceId, setWorkspaceId] = useState(workspaces[0]?.id ?? "");
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ token: string; name: string; path: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const byId = new Map(workspaces.map((w) => [w.id, w]));

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    const res = await createAgentToken({ workspace: workspaceId, name: name.trim() || undefined });
    setBusy(false);
    if (!res.ok) return setError(res.error);
    const body = res.data;
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
  }

  async function revoke(token: TokenRow) {
    if (
      !window.confirm(
        `Revoke "${token.name}"? Agents using it can no longer reach the cockpit; their prompts fall back to the terminal.`,
      )
    )
      return;
    setError(null);
    setNotice(null);
    const res = await revokeAgentToken(token.id);
    if (!res.ok) return setError(res.error);
    setTokens((list) => list.map((t) => (t.id === token.id ? { ...t, revokedAt: new Date().toISOString() } : t)));
    setNotice(`Revoked ${token.name}`);
  }

  const lines = created
    ? `export COCKPIT_TOKEN=${created.token}\nnpx cockpit connect claude-code --workspace ${created.path}`
    : "";
  return (
    <div className="stack">
      {workspaces.length === 0 ? (
        <p className="muted">
          Register a workspace first (<a href="/workspaces">Workspaces</a>); each token belongs to one.
        </p>
      ) : (
        <form className="row" onSubmit={create} aria-label="Create an agent token" style={{ alignItems: "flex-end" }}>
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
          <button className="primary" type="submit" disabled={busy || !workspaceId}>
            Create token
          </button>
        </form>
      )}
      {created ? (
        <div className="notice stack" role="status" data-testid="new-token" style={{ color: "var(--text)" }}>
          <strong>Token &ldquo;{created.name}&rdquo; created. Copy it now: it is shown only once.</strong>
          <div className="row">
            <code style={{ overflowWrap: "anywhere", flex: "1 1 14rem" }} data-testid="token-value">
              {created.token}
            </code>
            <CopyButton text={created.token} label="Copy token" />
          </div>
          <span>In the workspace, connect Claude Code:</span>
          <pre style={{ background: "var(--surface)", padding: "0.5rem", borderRadius: 8 }}>{lines}</pre>
          <div className="row">
            <CopyButton text={lines} label="Copy commands" />
            <button type="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {tokens.length === 0 ? (
        <p className="muted">No agent tokens yet.</p>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Agent tokens">
          {[...tokens].reverse().map((t) => {
            const ws = byId.get(t.workspaceId);
            return (
              <li
                key={t.id}
                className="row"
                data-testid="agent-token"
                style={{
                  justifyContent: "space-between",
                  borderBottom: "1px solid var(--border)",
                  paddingBottom: "0.5rem",
                }}
              >
                <div style={{ minWidth: 0, flex: "1 1 14rem" }}>
                  <strong style={{ overflowWrap: "anywhere" }}>{t.name}</strong>{" "}
                  {t.revokedAt ? <span className="tag bad">revoked</span> : <span className="tag ok">active</span>}
                  <div className="mono muted" style={{ overflowWrap: "anywhere", fontSize: "0.85rem" }}>
                    {ws ? ws.path : t.workspaceId}
                  </div>
                  <div className="muted" style={{ fontSize: "0.85rem" }} suppressHydrationWarning>
                    created {when(t.createdAt)} · last used {when(t.lastUsedAt)}
                  </div>
                </div>
                {t.revokedAt ? null : (
                  <button type="button" onClick={() => revoke(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
