"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { addWorkspace, removeWorkspace, unwrap, type WorkspaceView } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import styles from "./workspaces.module.css";

/** Register, list and remove workspaces; only someone who may manage the registry sees the controls. */
export function WorkspacesManager({ initial, canManage }: { initial: WorkspaceView[]; canManage: boolean }) {
  const [items, setItems] = useState(initial);
  const [path, setPath] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: () => unwrap(addWorkspace(path)),
    onMutate: () => setNotice(null),
    onSuccess: ({ workspace }) => {
      setItems((list) => [...list, workspace].sort((a, b) => a.name.localeCompare(b.name)));
      setPath("");
      setNotice(`Registered ${workspace.path}`);
    },
  });
  const remove = useMutation({
    mutationFn: (ws: WorkspaceView) => unwrap(removeWorkspace(ws.id)),
    onMutate: () => setNotice(null),
    onSuccess: (_r, ws) => {
      setItems((list) => list.filter((w) => w.id !== ws.id));
      setNotice(`Removed ${ws.path}`);
    },
  });
  const error = add.error ?? remove.error;
  return (
    <div className="stack">
      {canManage ? (
        <form
          className="card row"
          aria-label="Add a workspace"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
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
          <Button variant="primary" type="submit" disabled={!path.trim()} busy={add.isPending} className={styles.end}>
            Add workspace
          </Button>
        </form>
      ) : null}
      {error ? <Alert>{error.message}</Alert> : null}
      {notice ? <Notice>{notice}</Notice> : null}
      {items.length === 0 ? (
        <p className="muted">
          No workspaces yet.{" "}
          {canManage ? (
            <>
              Add a folder above, or run <code>npx cockpit workspace add DIR</code>.
            </>
          ) : (
            "Ask an admin to give you a role in one."
          )}
        </p>
      ) : (
        <ul className={styles.list} aria-label="Workspaces">
          {items.map((ws) => (
            <li key={ws.id} className="card" data-testid="workspace">
              <div className={`row ${styles.head}`}>
                <div className={styles.name}>
                  <strong>{ws.name}</strong>
                  <div className="mono muted">{ws.path}</div>
                </div>
                {canManage ? (
                  <Button
                    busy={remove.isPending && remove.variables?.id === ws.id}
                    aria-label={`Remove ${ws.path}`}
                    onClick={() => {
                      if (window.confirm(`Stop tracking ${ws.path}? Its settings files are not touched.`))
                        remove.mutate(ws);
                    }}
                  >
                    Remove
                  </Button>
                ) : null}
              </div>
              <div className={`row ${styles.stores}`} aria-label="Agent stores">
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
