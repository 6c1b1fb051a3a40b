import { z } from "zod";
import { route } from "@/lib/http/route";
import { listDeliveries } from "@/lib/notify";
import { requireEndpoint } from "@/lib/notify/endpoints";

const Params = z.object({ id: z.string().min(1).max(200) });
const Query = z.object({ limit: z.coerce.number().int().min(1).max(200).default(30) });

/** The delivery log of one endpoint: newest first, each with its attempts. */
export const GET = route(
  { access: "admin", person: true, params: Params, query: Query },
  async ({ db, actor, params, query }) => {
    await requireEndpoint(db, actor, params.id);
    return { deliveries: await listDeliveries(db, { endpointId: params.id, limit: query.limit }) };
  },
);
