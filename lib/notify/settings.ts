import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { appSettings } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { requireCan } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";
import { envAllowHostsOf, type NotifyEnv } from "./notify-env";
import { hostKey, type TargetPolicy } from "./ssrf";

const ALLOW_HOSTS_KEY = "notify.allow_hosts";

export const AllowHostsInput = z.object({
  hosts: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(255)
        .regex(/^[\w.:\[\]-]+$/, "a host name or IP address, without scheme or port"),
    )
    .max(100),
});
export type AllowHostsInput = z.infer<typeof AllowHostsInput>;

async function readSetting<T>(db: DbOrTx, key: string): Promise<T | undefined> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, key));
  return row?.value as T | undefined;
}

/** Private hosts an admin allowed in Settings (the env list is separate and read-only here). */
export async function dbAllowHosts(db: DbOrTx): Promise<string[]> {
  return (await readSetting<string[]>(db, ALLOW_HOSTS_KEY)) ?? [];
}

export async function setAllowHosts({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: AllowHostsInput;
}): Promise<string[]> {
  requireCan(actor, "settings.manage", null);
  const hosts = [...new Set(input.hosts.map(hostKey))];
  await db.transaction(async (tx) => {
    await tx
      .insert(appSettings)
      .values({ key: ALLOW_HOSTS_KEY, value: hosts })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: hosts, updatedAt: new Date() } });
    await recordAudit(tx, {
      type: "notify.allow_hosts",
      actor: auditActor(actor, { workspaceId: null }),
      detail: { hosts },
    });
  });
  return hosts;
}

/** The SSRF policy in force now: env hosts plus the admin's list, re-read at every send. */
export async function targetPolicy(db: DbOrTx, e: NotifyEnv = {}): Promise<TargetPolicy> {
  return { allowHosts: [...envAllowHostsOf(e), ...(await dbAllowHosts(db))], lookupAll: e.lookupAll };
}
