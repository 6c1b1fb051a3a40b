import { z } from "zod";
import { route } from "@/lib/http/route";
import { AuditFilters, auditHistogram } from "@/lib/audit/query";

export const dynamic = "force-dynamic";

const Query = AuditFilters.extend({ buckets: z.coerce.number().int().min(1).max(200).default(48) });

/** Decisions over time by outcome: `{from, to, width, buckets:[{start, counts:{allow, deny, …}}]}`. */
export const GET = route({ access: "viewer", query: Query }, async ({ db, actor, query }) => {
  const { buckets, ...filters } = query;
  return auditHistogram(db, actor, filters, buckets);
});
