import { route } from "@/lib/http/route";
import { EntryImpactInput, entryImpact } from "@/lib/entries/impact";

export const dynamic = "force-dynamic";

/**
 * Impact preview before a revoke (no `to`) or a narrow (`to`): `{replayed, changed:[{event, before, after}]}`
 * over the last 30 days of logged calls the entry decided. Reads only; nothing is saved.
 */
export const POST = route({ access: "viewer", body: EntryImpactInput }, ({ db, actor, body }) =>
  entryImpact({ db, actor, input: body }),
);
