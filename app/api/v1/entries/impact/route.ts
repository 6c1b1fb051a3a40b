import { route } from "@/lib/http/route";
import { EntryImpactInput, entryImpact } from "@/lib/entries/impact";

export const dynamic = "force-dynamic";

/**
 * Impact preview before a revoke (no `to`) or a narrow (`to`): `{replayed, truncated, note, changed:[{event, before,
 * after}]}` over the last 30 days of logged calls the entry decided. Reads only; nothing is saved. The replay yields
 * between batches, stops at a work budget (`note`: "truncated after N calls …") or when the caller hangs up, and
 * each person gets a few a minute (429 with Retry-After).
 */
export const POST = route({ access: "viewer", body: EntryImpactInput }, ({ req, db, actor, body }) =>
  entryImpact({ db, actor, input: body, signal: req.signal }),
);
