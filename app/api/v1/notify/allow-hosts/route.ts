import { requireCan } from "@/lib/auth/access";
import { env } from "@/lib/config/env";
import { route } from "@/lib/http/route";
import { AllowHostsInput, dbAllowHosts, setAllowHosts } from "@/lib/notify";
import { parseAllowHosts } from "@/lib/notify/ssrf";

/** Private hosts webhooks may reach: the admin's list (editable) and COCKPIT_WEBHOOK_ALLOW_HOSTS (read-only). */
export const GET = route({ access: "admin" }, async ({ db, actor }) => {
  requireCan(actor, "settings.manage", null);
  return { hosts: await dbAllowHosts(db), envHosts: parseAllowHosts(env().COCKPIT_WEBHOOK_ALLOW_HOSTS) };
});

export const PUT = route({ access: "admin", body: AllowHostsInput }, async ({ db, actor, body }) => ({
  hosts: await setAllowHosts({ db, actor, input: body }),
  envHosts: parseAllowHosts(env().COCKPIT_WEBHOOK_ALLOW_HOSTS),
}));
