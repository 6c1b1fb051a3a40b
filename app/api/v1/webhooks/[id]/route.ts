import { z } from "zod";
import { route } from "@/lib/http/route";
import { requireEndpoint } from "@/lib/notify/endpoints";
import { deleteEndpoint, getEndpoint, listDeliveries, updateEndpoint, UpdateEndpointInput } from "@/lib/notify";

const Params = z.object({ id: z.string().min(1).max(200) });

/** One endpoint with its recent deliveries and every attempt. */
export const GET = route({ access: "admin", person: true, params: Params }, async ({ db, actor, params }) => {
  await requireEndpoint(db, actor, params.id);
  return {
    endpoint: await getEndpoint(db, params.id),
    deliveries: await listDeliveries(db, { endpointId: params.id }),
  };
});

export const PATCH = route(
  { access: "admin", person: true, params: Params, body: UpdateEndpointInput },
  async ({ db, actor, params, body }) => ({
    endpoint: await updateEndpoint({ db, actor, id: params.id, input: body }),
  }),
);

export const DELETE = route({ access: "admin", person: true, params: Params }, async ({ db, actor, params }) => {
  await deleteEndpoint({ db, actor, id: params.id });
  return { deleted: params.id };
});
