import { route } from "@/lib/http/route";
import { ImportBatch, importEntries } from "@/lib/audit/import";
import { findWorkspace } from "@/lib/workspaces/workspaces";

export const dynamic = "force-dynamic";

/**
 * One batch of an agent's own permission log (`source`: the agent) (`cockpit audit import` streams the file in batches).
 * Owner only; entries already imported (same hash) are skipped: `{imported, duplicates}`.
 */
export const POST = route({ access: "owner", body: ImportBatch }, async ({ db, body }) => {
  const workspace = await findWorkspace(db, body.workspace);
  return importEntries(db, { workspaceId: workspace.id, agent: body.source, session: body.session }, body.entries);
});
