import { getDb } from "@/db/client";
import { BackLink } from "@/components/ui/back-link";
import { Section } from "@/components/ui/section";
import { AllowHosts } from "@/components/notifications/allow-hosts";
import { NotificationsManager } from "@/components/notifications/notifications-manager";
import { PushDevice } from "@/components/notifications/push-device";
import { hasRole } from "@/lib/auth/actor";
import { requirePageActor } from "@/lib/auth/page";
import { env } from "@/lib/config/env";
import { dbAllowHosts, listEndpoints } from "@/lib/notify";
import { parseAllowHosts } from "@/lib/notify/ssrf";
import { listVisibleWorkspaces } from "@/lib/workspaces/workspaces";
import { can } from "@/lib/auth/access";

export const metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

export default async function NotificationsPage() {
  const actor = await requirePageActor();
  const admin = hasRole(actor, "admin");
  const db = await getDb();
  const [endpoints, workspaces, hosts] = admin
    ? await Promise.all([
        listEndpoints(db, actor),
        listVisibleWorkspaces({ db, actor }).then((all) => all.filter((w) => can(actor, "webhook.manage", w.id).ok)),
        dbAllowHosts(db),
      ])
    : [[], [], []];
  return (
    <>
      <BackLink href="/settings">Settings</BackLink>
      <h1>Notifications</h1>
      <Section
        title="Push on this device"
        intro="A notification for every card that needs an answer; tapping it opens the card."
      >
        <PushDevice />
      </Section>
      {admin ? (
        <>
          <Section
            title="Webhooks"
            intro="Sent once per card that needs a person, never for calls your rules settle. Signed with Standard Webhooks headers and retried with backoff."
          >
            <NotificationsManager
              initial={endpoints.map((e) => ({
                id: e.id,
                url: e.url,
                format: e.format,
                workspaceId: e.workspaceId,
                workspaceName: e.workspaceName,
                events: e.events,
                enabled: e.enabled,
                delaySeconds: e.delaySeconds,
                ntfyTopic: e.ntfyTopic,
                ntfyPriority: e.ntfyPriority,
                hasNtfyToken: e.hasNtfyToken,
                disabledReason: e.disabledReason,
              }))}
              workspaces={workspaces.map((w) => ({ id: w.id, name: w.name, path: w.path }))}
            />
          </Section>
          <Section
            title="Allowed private hosts"
            intro="Webhooks to private, loopback and link-local addresses are refused unless the exact host is listed here."
          >
            <AllowHosts initial={hosts} envHosts={parseAllowHosts(env().COCKPIT_WEBHOOK_ALLOW_HOSTS)} />
          </Section>
        </>
      ) : null}
    </>
  );
}
