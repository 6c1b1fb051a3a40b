"use client";

import type { WorkspaceOption } from "@/lib/client/api";

/** A labelled picker of registered workspaces, each shown with its folder. */
export function WorkspaceSelect({
  id,
  workspaces,
  value,
  onChange,
}: {
  id: string;
  workspaces: WorkspaceOption[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <>
      <label htmlFor={id}>Workspace</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} — {w.path}
          </option>
        ))}
      </select>
    </>
  );
}
