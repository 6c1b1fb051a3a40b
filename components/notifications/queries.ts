import { queryOptions } from "@tanstack/react-query";
import { unwrap, webhookDeliveries } from "@/lib/client/api";

export const notificationKeys = {
  deliveries: (endpointId: string) => ["webhooks", endpointId, "deliveries"] as const,
};

/** The newest deliveries of one endpoint, every attempt (the endpoint's Delivery log). */
export const deliveriesQuery = (endpointId: string) =>
  queryOptions({
    queryKey: notificationKeys.deliveries(endpointId),
    queryFn: async () => (await unwrap(webhookDeliveries(endpointId))).deliveries,
  });
