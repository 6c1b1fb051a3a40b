import { requireCan } from "@/lib/auth/access";
import { route } from "@/lib/http/route";
import { reportLine, verifyAudit } from "@/lib/audit/verify";

export const dynamic = "force-dynamic";

/**
 * Recomputes the audit chain and checks every checkpoint signature. The chain spans every workspace, so
 * it needs the owner or an admin of all workspaces (`can(actor, "audit.verify", null)`).
 */
export const POST = route({ access: "admin" }, async ({ db, actor }) => {
  requireCan(actor, "audit.verify", null);
  const report = await verifyAudit(db);
  return { ...report, line: reportLine(report) };
});
