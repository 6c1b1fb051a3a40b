import { requireCan } from "@/lib/auth/access";
import { route } from "@/lib/http/route";
import { reportLine, verifyAuditOnce } from "@/lib/audit/verify";
import { takeHeavyWork, VERIFY_LIMIT, workKey } from "@/lib/work/heavy-work";

export const dynamic = "force-dynamic";

/**
 * Recomputes the audit chain and checks every checkpoint signature. The chain spans every workspace, so
 * it needs the owner or an admin of all workspaces (`can(actor, "audit.verify", null)`). The check yields
 * between batches, one run serves every caller at a time, and each person gets a few a minute (429).
 */
export const POST = route({ access: "admin" }, async ({ db, actor }) => {
  requireCan(actor, "audit.verify", null);
  const release = takeHeavyWork(VERIFY_LIMIT, workKey(actor));
  try {
    const report = await verifyAuditOnce(db);
    return { ...report, line: reportLine(report) };
  } finally {
    release();
  }
});
