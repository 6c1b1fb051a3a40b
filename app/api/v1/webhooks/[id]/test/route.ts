import { z } from "zod";
import { route } from "@/lib/http/route";
import { sendTest } from "@/lib/notify";

const Params = z.object({ id: z.string().min(1).max(200) });

/** Sends a signed `webhook.test` now and returns the receiver's status code, latency and (truncated) body. */
export const POST = route({ access: "admin", person: true, params: Params }, async ({ db, actor, params }) => ({
  result: await sendTest({ db, actor, endpointId: params.id }),
}));
