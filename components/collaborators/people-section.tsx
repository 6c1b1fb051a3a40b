"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { removeCollaborator, setCollaboratorRoles, unwrap, type PersonRow } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Section } from "@/components/ui/section";
import { Time } from "@/components/ui/time";
import { peopleQuery, settingsKeys } from "./queries";
import styles from "./settings.module.css";

type Role = "viewer" | "approver" | "admin";
export type WorkspaceRef = { id: string; name: string };

/** Settings → People (admins): who has which role where; change a role or remove someone. */
export function PeopleSection({
  workspaces,
  owner,
  initial,
}: {
  workspaces: WorkspaceRef[];
  owner: boolean;
  initial: PersonRow[];
}) {
  const client = useQueryClient();
  const people = useQuery({ ...peopleQuery(), initialData: initial });
  const name = (id: string) => (id === "all" ? "all workspaces" : (workspaces.find((w) => w.id === id)?.name ?? id));
  const refresh = () => client.invalidateQueries({ queryKey: settingsKeys.people });
  const setRole = useMutation({
    mutationFn: ({ person, workspace, role }: { person: PersonRow; workspace: string; role: Role | "none" }) => {
      const roles = person.roles.filter((g) => g.workspace !== workspace);
      if (role !== "none") roles.push({ workspace, role });
      return unwrap(setCollaboratorRoles(person.id, roles));
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (person: PersonRow) => unwrap(removeCollaborator(person.id)),
    onSettled: refresh,
  });
  const columns = [...(owner ? [{ id: "all", name: "all workspaces" }] : []), ...workspaces];
  return (
    <Section title="People" intro="Who may see, answer or change what, per workspace.">
      {setRole.error || remove.error ? <Alert>{(setRole.error ?? remove.error)!.message}</Alert> : null}
      <ul className={styles.list} aria-label="People">
        {people.data.map((p) => (
          <li key={p.id} className={styles.item} data-person={p.name}>
            <div>
              <strong>{p.name}</strong>{" "}
              <span className="muted">
                {p.owner
                  ? "owner — admin everywhere"
                  : p.roles.map((g) => `${g.role} in ${name(g.workspace)}`).join(", ") || "no roles"}
                {" · last seen "}
                {p.lastSeenAt ? <Time iso={p.lastSeenAt} /> : "never"}
              </span>
            </div>
            {p.manageable && !p.owner ? (
              <div className="row">
                {columns.map((w) => (
                  <label key={w.id} className={styles.inline}>
                    {w.name}:{" "}
                    <select
                      aria-label={`${p.name} role in ${w.name}`}
                      value={p.roles.find((g) => g.workspace === w.id)?.role ?? "none"}
                      disabled={setRole.isPending}
                      onChange={(e) =>
                        setRole.mutate({ person: p, workspace: w.id, role: e.target.value as Role | "none" })
                      }
                    >
                      <option value="none">none</option>
                      <option value="viewer">viewer</option>
                      <option value="approver">approver</option>
                      <option value="admin">admin</option>
                    </select>
                  </label>
                ))}
                <Button
                  busy={remove.isPending && remove.variables?.id === p.id}
                  onClick={() => {
                    if (window.confirm(`Remove ${p.name}? Their sessions end at once.`)) remove.mutate(p);
                  }}
                >
                  Remove
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
