import { route } from "@/lib/http/route";
import { reportLine, verifyAudit } from "@/lib/audit/verify";

export const dynamic = "force-dynamic";

/** Recomputes the audit chain and checks every checkpoint signature (owner only: it reads the whole log). */
export const POST = route({ access: "owner" }, async ({ db }) => {
  const report = await verifyAudit(db);
  return { ...report, line: reportLine(report) };
});
