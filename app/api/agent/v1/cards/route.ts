import { json, route } from "@/lib/http/route";
import { publicBaseUrl } from "@/lib/config/base-url";
import { AdmitCardInput, admitCard } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** An agent asks: 201 with the card id and hash, or 200 when policy (or an absence hold) decides at once. */
export const POST = route({ access: "agent", body: AdmitCardInput }, async ({ db, actor, body }) => {
  if (actor.kind !== "agent") throw new Error("unreachable: agent access");
  const result = await admitCard({ db, actor, workspaceId: actor.workspaceId, input: body });
  if (result.status !== "pending") return json({ status: result.status, decision: result.decision });
  return json(
    { id: result.id, status: "pending", hash: result.hash, url: `${publicBaseUrl()}/cards/${result.id}` },
    201,
  );
});
