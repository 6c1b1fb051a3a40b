/** Notifications: webhook endpoints, the outbox worker, formats, Standard Webhooks signing, SSRF policy, ntfy actions and Web Push. */
export {
  createEndpoint,
  updateEndpoint,
  deleteEndpoint,
  listEndpoints,
  getEndpoint,
  listDeliveries,
  redeliver,
  CreateEndpointInput,
  UpdateEndpointInput,
  WEBHOOK_FORMATS,
  NOTIFY_EVENTS,
  type EndpointView,
  type DeliveryLogEntry,
} from "./endpoints";
export { sendTest, type TestSendResult } from "./send-test";
export { useActionToken, mintActionTokens, ActionClaim } from "./action-tokens";
export { fanOut, claimDue, notifyTypeOf } from "./fan-out";
export { attemptDelivery } from "./deliver";
export { startNotifyWorker, type NotifyWorker } from "./worker";
export { signWebhook, verifyWebhook, webhookHeaders, newWebhookSecret } from "./signing";
export { checkTarget, ipRefusal, parseTargetUrl, RefusedTargetError } from "./ssrf";
export { dbAllowHosts, setAllowHosts, AllowHostsInput, targetPolicy } from "./settings";
export { vapidKeys, subscribePush, unsubscribePush, PushSubscriptionInput, countPushSubscriptions } from "./push";
export { renderBody, JSON_PAYLOAD_VERSION } from "./formats";
export { RETRY_SCHEDULE_SECONDS, type NotifyEnv } from "./notify-env";
