import Link from "next/link";
import { getDb } from "@/db/client";
import { AbsenceTimeout } from "@/components/settings/absence-timeout";
import { AgentTokens } from "@/components/settings/agent-tokens";
import { VerifyAudit } from "@/components/settings/verify-audit";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { InviteSection } from "@/components/collaborators/invite-section";
import { PairPhone } from "@/components/collaborators/pair-phone";
import { PasskeysSettings } from "@/components/collaborators/passkeys-settings";
import { PasskeyWorkspaces } from "@/components/collaborators/passkey-workspaces";
import { PeopleSection } from "@/components/collaborators/people-section";
import { SessionsSection } from "@/components/collaborators/sessions-section";
import { Icon } from "@/components/ui/icon";
import { Section } from "@/components/ui/section";
import { listAgentTokens } from "@/lib/auth/agent-tokens";
import { can } from "@/lib/auth/access";
import { topRole } from "@/lib/auth/actor";
import { listCollaborators, listInvites } from "@/lib/auth/invites";
import { recentLoginLinkMints } from "@/lib/auth/login-link-notices";
import { requirePageActor } from "@/lib/auth/page";
import { listPasskeys } from "@/lib/auth/passkeys";
import { listSessions } from "@/lib/auth/sessions";
import { absenceTimeout } from "@/lib/cards/absence";
import { listVisibleWorkspaces } from "@/lib/workspaces/workspaces";

export const metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * Settings, by what the person's role lets them change: admins see people, invites and agent tokens for their
 * workspaces; only an admin of every workspace (or the owner) sees server-wide settings; everyone sees their own
 * sessions, passkeys and account.
 */
export default async function SettingsPage() {
  const actor = await requirePageActor();
  const db = await getDb();
  const workspaces = await listVisibleWorkspaces({ db, actor });
  const administered = workspaces.filter((w) => can(actor, "collaborator.manage", w.id).ok);
  const tokenWorkspaces = workspaces.filter((w) => can(actor, "agent_token.manage", w.id).ok);
  const serverWide = can(actor, "settings.manage", null).ok;
  const canManage = administered.length > 0;
  const [tokens, timeout, people, invites, devices, keys, mints] = await Promise.all([
    tokenWorkspaces.length ? listAgentTokens({ db, actor }) : Promise.resolve([]),
    serverWide ? absenceTimeout(db) : Promise.resolve(null),
    canManage ? listCollaborators({ db, actor }) : Promise.resolve([]),
    canManage ? listInvites({ db, actor }) : Promise.resolve([]),
    listSessions({ db, actor, input: {} }),
    listPasskeys({ db, actor }),
    actor.owner ? recentLoginLinkMints(db, { sessionId: actor.sessionId }) : Promise.resolve(null),
  ]);
  const refs = administered.map((w) => ({ id: w.id, name: w.name }));
  return (
    <>
      <h1>Settings</h1>
      {canManage ? (
        <>
          <PeopleSection workspaces={refs} owner={actor.owner} initial={people} />
          <InviteSection workspaces={refs} owner={actor.owner} initial={invites} />
        </>
      ) : null}
      {actor.owner ? <PairPhone /> : null}
      <SessionsSection
        initial={devices}
        loginLinks={mints?.map((m) => ({ mintedAt: m.mintedAt.toISOString(), usedAt: iso(m.usedAt) })) ?? null}
      />
      <PasskeysSettings initial={keys} />
      <PasskeyWorkspaces
        initial={workspaces
          .filter((w) => can(actor, "workspace.settings", w.id).ok)
          .map((w) => ({ id: w.id, name: w.name, requirePasskey: w.requirePasskey }))}
      />
      {tokenWorkspaces.length ? (
        <Section
          title="Agent tokens"
          intro={
            <>
              An agent sends its permission prompts to the cockpit with a token that belongs to one workspace. Or from a
              terminal: <code>npx cockpit agent-token create --workspace DIR</code>.
            </>
          }
        >
          <AgentTokens
            initial={tokens.map((t) => ({
              id: t.id,
              name: t.name,
              workspaceId: t.workspaceId,
              createdAt: t.createdAt.toISOString(),
              lastUsedAt: iso(t.lastUsedAt),
              revokedAt: iso(t.revokedAt),
            }))}
            workspaces={tokenWorkspaces.map((w) => ({ id: w.id, name: w.name, path: w.path }))}
          />
        </Section>
      ) : null}
      {serverWide ? (
        <Section title="Absence timeout">
          <AbsenceTimeout initial={timeout} />
        </Section>
      ) : null}
      <Section title="Notifications" intro="Get pending cards on your phone (push, ntfy, webhooks).">
        <Link className="button" href="/settings/notifications">
          Notification settings <Icon name="arrowRight" size={16} />
        </Link>
      </Section>
      {can(actor, "audit.verify", null).ok ? (
        <Section title="Audit log">
          <VerifyAudit />
        </Section>
      ) : null}
      <Section
        title="Account"
        intro={
          <>
            Signed in as <strong>{actor.name}</strong> ({actor.owner ? "owner" : (topRole(actor) ?? "no role yet")}).
          </>
        }
      >
        <SignOutButton />
      </Section>
    </>
  );
}
