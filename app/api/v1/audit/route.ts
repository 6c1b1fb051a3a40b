import { route } from "@/lib/http/route";
import { AuditPageQuery, listAuditEvents } from "@/lib/audit/query";

export const dynamic = "force-dynamic";

/** The audit timeline: `{events, next}`, newest first, keyset-paged by seq; each person sees their workspaces. */
export const GET = route({ access: "viewer", query: AuditPageQuery }, ({ db, actor, query }) =>
  listAuditEvents(db, actor, query),
);
