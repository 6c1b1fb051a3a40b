"use client";
import { useState } from "react";
import { addWorkspace, removeWorkspace, type WorkspaceView } from "@/lib/client/api";

/** Register, list and remove workspaces. */
export function WorkspacesManager({ initial }: { initial: WorkspaceView[] }) {
  const [items, setItems] = useState(initial);
  const [path, setPath] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    const res = await addWorkspace(path);
    setBusy(false);
    if (!res.ok) return setError(res.error);
    const { workspace } = res.data;
    setItems((list) => [...list, workspace].sort((a, b) => a.name.localeCompare(b.name)));
    setPath("");
    setNotice(`Registered ${workspace.path}`);
  }

  async function remove(ws: WorkspaceView) {
    if (!window.confirm(`Stop tracking ${ws.path}? Its settings files are not touched.`)) return;
    setError(null);
    setNotice(null);
    const res = await removeWorkspace(ws.id);
    if (!res.ok) return setError(res.error);
    setItems((list) => list.filter((w) => w.id !== ws.id));
    setNotice(`Removed ${ws.path}`);
  }

  return (
    <div className="stack">
      <form className="card row" onSubmit={add} aria-label="Add a workspace">
        <div className="field">
          <label htmlFor="ws-path">Folder path</label>
          <input
            id="ws-path"
            name="path"
            placeholder="/home/you/projects/app"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            required
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <button className="primary" type="submit" disabled={busy || !path.trim()} style={{ alignSelf: "flex-end" }}>
          Add workspace
        </button>
      </form>
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
      {items.length === 0 ? (
        <p className="muted">
          No workspaces yet. Add a folder above, or run <code>npx cockpit workspace add DIR</code>.
        </p>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Workspaces">
          {items.map((ws) => (
            <li key={ws.id} className="card" data-testid="workspace">
              <div className="row" style={{ justifyContent: "space-between" }}>
                <div style={{ minWidth: 0 }}>
                  <strong>{ws.name}</strong>
                  <div className="mono muted" style={{ overflowWrap: "anywhere" }}>
                    {ws.path}
                  </div>
                </div>
                <button onClick={() => remove(ws)} aria-label={`Remove ${ws.path}`}>
                  Remove
                </button>
              </div>
              <div className="row" style={{ marginTop: "0.5rem" }} aria-label="Agent stores">
                {ws.stores.filter((s) => s.exists).length === 0 ? (
                  <span className="muted">No agent settings files found.</span>
                ) : (
                  ws.stores
                    .filter((s) => s.exists)
                    .map((s) => (
                      <span key={s.file} className="tag ok" title={s.agent}>
                        {s.file}
                      </span>
                    ))
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
