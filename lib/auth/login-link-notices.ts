import "server-only";
import { and, desc, eq, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditEvents, loginTokens } from "@/db/schema";

export interface LoginLinkMint {
  mintedAt: Date;
  usedAt: Date | null;
}

export const NOTICE_WINDOW_HOURS = 24;

/**
 * Login links minted with the CLI credential in the last day, except the one that opened this session.
 * Anything running as the owner's OS user can mint one, so the web app lists them for the owner to check.
 */
export async function recentLoginLinkMints(
  db: Db,
  { sessionId, now = new Date() }: { sessionId: string; now?: Date },
): Promise<LoginLinkMint[]> {
  const since = new Date(now.getTime() - NOTICE_WINDOW_HOURS * 3600 * 1000);
  const [login] = await db
    .select({ detail: auditEvents.detail })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "auth.login"), eq(auditEvents.target, sessionId)))
    .limit(1);
  const own = (login?.detail as { loginTokenId?: string } | null)?.loginTokenId ?? null;
  const rows = await db
    .select({ id: loginTokens.id, mintedAt: loginTokens.createdAt, usedAt: loginTokens.usedAt })
    .from(loginTokens)
    // Phone-pairing links are minted in the web app by the owner, not with the CLI credential.
    .where(and(gt(loginTokens.createdAt, since), eq(loginTokens.purpose, "link")))
    .orderBy(desc(loginTokens.createdAt))
    .limit(20);
  return rows.filter((r) => r.id !== own).map(({ mintedAt, usedAt }) => ({ mintedAt, usedAt }));
}
