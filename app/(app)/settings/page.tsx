import Link from "next/link";
import { getDb } from "@/db/client";
import { AbsenceTimeout } from "@/components/settings/absence-timeout";
import { AgentTokens } from "@/components/settings/agent-tokens";
import { VerifyAudit } from "@/components/settings/verify-audit";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { listAgentTokens } from "@/lib/auth/agent-tokens";
import { requirePageActor } from "@/lib/auth/page";
import { absenceTimeout } from "@/lib/cards/absence";
import { listVisibleWorkspaces } from "@/lib/workspaces/workspaces";
import { hasRole, topRole } from "@/lib/auth/actor";
import { can } from "@/lib/auth/access";
import { listCollaborators } from "@/lib/auth/invites";
import { listSessions } from "@/lib/auth/sessions";
import { PeopleSettings } from "@/components/collaborators/people-settings";
import { PasskeysSettings } from "@/components/collaborators/passkeys-settings";
import { PasskeyWorkspaces } from "@/components/collaborators/passkey-workspaces";
import { listPasskeys } from "@/lib/auth/passkeys";
import { recentLoginLinkMints } from "@/lib/auth/login-link-notices";

export const metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const actor = await requirePageActor();
  const db = await getDb();
  const [workspaces, tokens, timeout, people, devices] = await Promise.all([
    listVisibleWorkspaces({ db, actor }),
    listAgentTokens({ db, actor }),
    absenceTimeout(db),
    hasRole(actor, "admin") ? listCollaborators({ db, actor }) : Promise.resolve([]),
    listSessions({ db, actor, input: {} }),
  ]);
  const keys = await listPasskeys({ db, actor });
  const administered = workspaces.filter((w) => can(actor, "collaborator.manage", w.id).ok);
  const toIso = (d: Date | null) => d?.toISOString() ?? null;
  return (
    <>
      <h1>Settings</h1>
      <PeopleSettings
        workspaces={administered.map((w) => ({ id: w.id, name: w.name }))}
        owner={actor.owner}
        canManage={administered.length > 0}
        initialPeople={people}
        initialDevices={devices}
        loginLinks={
          actor.owner
            ? (await recentLoginLinkMints(db, { sessionId: actor.sessionId })).map((m) => ({
                mintedAt: m.mintedAt.toISOString(),
                usedAt: m.usedAt?.toISOString() ?? null,
              }))
            : null
        }
      />
      <PasskeysSettings initial={keys} />
      <PasskeyWorkspaces
        initial={workspaces
          .filter((w) => can(actor, "workspace.settings", w.id).ok)
          .map((w) => ({ id: w.id, name: w.name, requirePasskey: w.requirePasskey }))}
      />
      <section className="card" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading" style={{ marginTop: 0 }}>
          Agent tokens
        </h2>
        <p className="muted" style={{ marginTop: 0 }}>
          An agent sends its permission prompts to the cockpit with a token that belongs to one workspace. Or from a
          terminal: <code>npx cockpit agent-token create --workspace DIR</code>.
        </p>
        <AgentTokens
          initial={tokens.map((t) => ({
            id: t.id,
            name: t.name,
            workspaceId: t.workspaceId,
            createdAt: t.createdAt.toISOString(),
            lastUsedAt: toIso(t.lastUsedAt),
            revokedAt: toIso(t.revokedAt),
          }))}
          workspaces={workspaces.map((w) => ({ id: w.id, name: w.name, path: w.path }))}
        />
      </section>
      <section className="card" aria-labelledby="absence-heading">
        <h2 id="absence-heading" style={{ marginTop: 0 }}>
          Absence timeout
        </h2>
        <AbsenceTimeout initial={timeout} />
      </section>
      <section className="card" aria-labelledby="notifications-heading">
        <h2 id="notifications-heading" style={{ marginTop: 0 }}>
          Notifications
        </h2>
        <p className="muted" style={{ marginTop: 0 }}>
          Get pending cards on your phone (push, ntfy, webhooks).
        </p>
        <Link className="button" href="/settings/notifications">
          Notification settings →
        </Link>
      </section>
      {can(actor, "audit.verify", null).ok && (
        <section className="card" aria-labelledby="audit-heading">
          <h2 id="audit-heading" style={{ marginTop: 0 }}>
            Audit log
          </h2>
          <VerifyAudit />
        </section>
      )}
      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading" style={{ marginTop: 0 }}>
          Account
        </h2>
        <p className="muted" style={{ marginTop: 0 }}>
          Signed in as <strong>{actor.name}</strong> ({actor.owner ? "owner" : (topRole(actor) ?? "no role yet")}).
        </p>
        <SignOutButton />
      </section>
    </>
  );
}
