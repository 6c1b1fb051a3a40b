"use client";
import { useCallback, useState } from "react";
import {
  createInvite as postInvite,
  endDevice as deleteDevice,
  fetchCollaborators,
  fetchDevices,
  pairPhone,
  removeCollaborator,
  setCollaboratorRoles,
  type DeviceRow,
  type PersonRow,
} from "@/lib/client/api";
import { LoginLinkList, type LoginLinkMintView } from "@/components/shell/login-link-notice";
import { QrLink } from "./qr-link";

type Role = "viewer" | "approver" | "admin";
interface Grant {
  workspace: string;
  role: Role;
}
export type { DeviceRow, PersonRow };

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

/** Settings → People: invite (link + QR), change roles, remove; pair the owner's phone; this person's sessions. */
export function PeopleSettings({
  workspaces,
  owner,
  canManage,
  initialPeople,
  initialDevices,
  loginLinks,
}: {
  workspaces: { id: string; name: string }[];
  owner: boolean;
  canManage: boolean;
  initialPeople: PersonRow[];
  initialDevices: DeviceRow[];
  /** The owner's CLI-minted login links of the last day (null for others). */
  loginLinks: LoginLinkMintView[] | null;
}) {
  const [people, setPeople] = useState(initialPeople);
  const [devices, setDevices] = useState(initialDevices);
  const [error, setError] = useState<string | null>(null);
  const [invite, setInvite] = useState<{ url: string; expiresAt: string } | null>(null);
  const [pairing, setPairing] = useState<{ url: string; expiresAt: string } | null>(null);
  const [role, setRole] = useState<Role>("approver");
  const [scope, setScope] = useState<string>(owner ? "all" : (workspaces[0]?.id ?? ""));
  const [hours, setHours] = useState(72);
  const name = (id: string) => (id === "all" ? "all workspaces" : (workspaces.find((w) => w.id === id)?.name ?? id));

  const reload = useCallback(async () => {
    const [p, d] = await Promise.all([canManage ? fetchCollaborators() : null, fetchDevices()]);
    if (p?.ok) setPeople(p.data.collaborators);
    if (d.ok) setDevices(d.data.sessions);
  }, [canManage]);

  async function createInvite(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    const res = await postInvite({
      role,
      workspaces: scope === "all" ? "all" : [scope],
      expiresInHours: hours,
    });
    if (res.ok) setInvite(res.data);
    else setError(res.error);
  }
  async function pair() {
    setError(null);
    const res = await pairPhone();
    if (res.ok) setPairing(res.data);
    else setError(res.error);
  }
  async function setRoleOf(person: PersonRow, workspace: string, next: Role | "none") {
    setError(null);
    const roles = person.roles.filter((g) => g.workspace !== workspace);
    if (next !== "none") roles.push({ workspace, role: next });
    const res = await setCollaboratorRoles(person.id, roles);
    if (!res.ok) setError(res.error);
    await reload();
  }
  async function remove(person: PersonRow) {
    if (!window.confirm(`Remove ${person.name}? Their sessions end at once.`)) return;
    const res = await removeCollaborator(person.id);
    if (!res.ok) setError(res.error);
    await reload();
  }
  async function endDevice(id: string, current: boolean) {
    const res = await deleteDevice(id);
    if (!res.ok) return setError(res.error);
    if (current) window.location.replace("/login?signedOut=1");
    else await reload();
  }

  return (
    <div className="stack">
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {canManage ? (
        <section className="card stack" aria-labelledby="people-heading">
          <h2 id="people-heading" style={{ marginTop: 0 }}>
            People
          </h2>
          <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="People">
            {people.map((p) => (
              <li key={p.id} className="stack" style={{ gap: 4 }} data-person={p.name}>
                <div>
                  <strong>{p.name}</strong>{" "}
                  <span className="muted">
                    {p.owner
                      ? "owner — admin everywhere"
                      : p.roles.map((g) => `${g.role} in ${name(g.workspace)}`).join(", ") || "no roles"}
                    {" · "}last seen {when(p.lastSeenAt)}
                  </span>
                </div>
                {p.manageable && !p.owner ? (
                  <div className="row" style={{ gap: 8, flexWrap: "wrap" }}>
                    {[...(owner ? [{ id: "all", name: "all workspaces" }] : []), ...workspaces].map((w) => (
                      <label key={w.id}>
                        {w.name}:{" "}
                        <select
                          aria-label={`${p.name} role in ${w.name}`}
                          value={p.roles.find((g) => g.workspace === w.id)?.role ?? "none"}
                          onChange={(e) => void setRoleOf(p, w.id, e.target.value as Role | "none")}
                        >
                          <option value="none">none</option>
                          <option value="viewer">viewer</option>
                          <option value="approver">approver</option>
                          <option value="admin">admin</option>
                        </select>
                      </label>
                    ))}
                    <button className="button" type="button" onClick={() => void remove(p)}>
                      Remove
                    </button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <form className="stack" onSubmit={createInvite} aria-label="Invite someone">
            <h3 style={{ margin: 0 }}>Invite someone</h3>
            <div className="row" style={{ gap: 8, flexWrap: "wrap" }}>
              {/* Long option texts must not widen the page on a phone: the field shrinks to the row. */}
              <label style={{ maxWidth: "100%", minWidth: 0 }}>
                Role{" "}
                <select
                  name="role"
                  value={role}
                  onChange={(e) => setRole(e.target.value as Role)}
                  style={{ maxWidth: "100%" }}
                >
                  <option value="viewer">viewer — sees cards, rules, audit</option>
                  <option value="approver">approver — also answers cards</option>
                  <option value="admin">admin — also edits rules, webhooks, tokens, people</option>
                </select>
              </label>
              <label style={{ maxWidth: "100%", minWidth: 0 }}>
                Workspace{" "}
                <select
                  name="workspace"
                  value={scope}
                  onChange={(e) => setScope(e.target.value)}
                  style={{ maxWidth: "100%" }}
                >
                  {owner ? <option value="all">all workspaces</option> : null}
                  {workspaces.map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.name}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Expires in (hours){" "}
                <input
                  type="number"
                  min={1}
                  max={168}
                  value={hours}
                  onChange={(e) => setHours(Number(e.target.value))}
                  style={{ width: 80 }}
                />
              </label>
              <button className="button primary" type="submit">
                Create invite link
              </button>
            </div>
            {invite ? (
              <div data-testid="invite-link">
                <p className="muted" style={{ margin: 0 }}>
                  Single use, until {when(invite.expiresAt)}. Scan it with the phone or send the link.
                </p>
                <QrLink url={invite.url} label="Invite link" />
              </div>
            ) : null}
          </form>
        </section>
      ) : null}
      {owner ? (
        <section className="card stack" aria-labelledby="pair-heading">
          <h2 id="pair-heading" style={{ marginTop: 0 }}>
            Pair my phone
          </h2>
          <p className="muted" style={{ margin: 0 }}>
            Scan this with your phone to sign in there as you. The code works once, for 10 minutes.
          </p>
          <button className="button" type="button" onClick={() => void pair()}>
            Show a pairing code
          </button>
          {pairing ? <QrLink url={pairing.url} label="Pairing link" /> : null}
        </section>
      ) : null}
      <section className="card stack" aria-labelledby="devices-heading" id="sessions">
        <h2 id="devices-heading" style={{ marginTop: 0 }}>
          Your sessions
        </h2>
        <ul style={{ listStyle: "none", padding: 0, margin: 0 }} className="stack" aria-label="Sessions">
          {devices.map((d) => (
            <li key={d.id} className="row" style={{ gap: 8, justifyContent: "space-between" }}>
              <span>
                <strong>{d.device}</strong>
                {d.current ? " (this device)" : ""}{" "}
                <span className="muted">
                  signed in by {d.signIn} · last seen {when(d.lastSeenAt)}
                </span>
              </span>
              <button className="button" type="button" onClick={() => void endDevice(d.id, d.current)}>
                {d.current ? "End this session" : "End"}
              </button>
            </li>
          ))}
        </ul>
        {loginLinks ? <LoginLinkList mints={loginLinks} /> : null}
      </section>
    </div>
  );
}
