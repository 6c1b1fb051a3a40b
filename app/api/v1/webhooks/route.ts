import { json, route } from "@/lib/http/route";
import { createEndpoint, CreateEndpointInput, listEndpoints } from "@/lib/notify";

/** Webhook endpoints (admin). The secret is returned once, at creation. */
export const GET = route({ access: "admin", person: true }, async ({ db, actor }) => ({
  endpoints: await listEndpoints(db, actor),
}));

export const POST = route({ access: "admin", person: true, body: CreateEndpointInput }, async ({ db, actor, body }) => {
  const { endpoint, secret } = await createEndpoint({ db, actor, input: body });
  return json({ id: endpoint.id, secret, endpoint }, 201);
});
