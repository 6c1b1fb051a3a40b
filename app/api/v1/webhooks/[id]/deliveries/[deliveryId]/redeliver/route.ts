import { z } from "zod";
import { route } from "@/lib/http/route";
import { redeliver } from "@/lib/notify";

const Params = z.object({ id: z.string().min(1).max(200), deliveryId: z.string().min(1).max(200) });

/** Queues the delivery again now (same webhook-id); the worker picks it up within half a second. */
export const POST = route({ access: "admin", person: true, params: Params }, async ({ db, actor, params }) => {
  await redeliver({ db, actor, endpointId: params.id, deliveryId: params.deliveryId });
  return { queued: params.deliveryId };
});
