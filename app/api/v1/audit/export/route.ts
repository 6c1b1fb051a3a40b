import { z } from "zod";
import { route } from "@/lib/http/route";
import { AuditFilters, exportAuditStream } from "@/lib/audit/query";

export const dynamic = "force-dynamic";

const Query = AuditFilters.extend({ format: z.enum(["csv", "jsonl"]).default("csv") });

/** Streams the filtered set as CSV or JSONL, in batches by cursor (never the whole log in memory). */
export const GET = route({ access: "viewer", query: Query }, async ({ db, actor, query }) => {
  const { format, ...filters } = query;
  const stream = await exportAuditStream(db, actor, filters, format);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(stream, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
});
