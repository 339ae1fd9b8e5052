export { systemClock } from './ports';
export type { Clock, PageCursorCodec } from './ports';
export { eventEnvelope } from './fan-out/event-envelope';
export type { EventEnvelope, FanOutEvent } from './fan-out/event-envelope';
export { WebhookFanOut, WEBHOOK_RETRY_WINDOW_MS, isSubscribed, newDelivery } from './fan-out/event-fan-out';
export type { EventFanOut, FanOutOptions, WebhookFanOutDependencies } from './fan-out/event-fan-out';
export { CachedEndpointDirectory, ENDPOINT_LIST_LIFETIME_MS, ENDPOINT_LIST_MAX_BUSINESSES } from './fan-out/cached-endpoint-directory';
export type { CachedEndpointDirectoryOptions, EndpointDirectory } from './fan-out/cached-endpoint-directory';
export { cachedWebhookFanOut } from './fan-out/cached-webhook-fan-out';
export type { CachedWebhookFanOutPorts } from './fan-out/cached-webhook-fan-out';
export { WebhookDispatcher } from './dispatch/webhook-dispatcher';
export type { WebhookDispatcherDependencies, WebhookDispatcherOptions } from './dispatch/webhook-dispatcher';
export { DEFAULT_WEBHOOK_RETRY_POLICY, nextWebhookAttemptAt, webhookRetryDelayMs } from './dispatch/retry-schedule';
export type { WebhookRetryPolicy } from './dispatch/retry-schedule';
export { HttpWebhookTransport } from './dispatch/webhook-transport';
export type { WebhookTransport } from './dispatch/webhook-transport';
export { WEBHOOK_SECRET_PREFIX, generateWebhookSecret, liveSecrets, standardSigningKey } from './signing/webhook-secret';
export {
  X_WEBHOOK_SIGNATURE_HEADER,
  standardWebhookSignature,
  standardWebhookSignatureHeader,
  verifyXWebhookSignature,
  webhookSignatureHex,
  xWebhookSignatureHeader,
} from './signing/webhook-signatures';
export { deliveryHeaders } from './signing/delivery-headers';
export { isPublicAddress } from './url-policy/public-address';
export { WebhookUrlRefusedError, checkWebhookUrl, resolveAllAddresses } from './url-policy/webhook-url-policy';
export type { WebhookUrlPolicy } from './url-policy/webhook-url-policy';
export type { WebhookEndpointDependencies } from './endpoints/webhook-endpoint-dependencies';
export { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from './endpoints/webhook-endpoint-crud.usecases';
export type { CreateWebhookEndpointInput, Page, PageRequest, UpdateWebhookEndpointInput } from './endpoints/webhook-endpoint-crud.usecases';
export { SECRET_ROTATION_OVERLAP_MS, pingWebhookEndpoint, rotateWebhookSecret } from './endpoints/webhook-endpoint-actions.usecases';
export { listWebhookDeliveries, redeliverWebhookEvent } from './endpoints/webhook-deliveries.usecases';
export { MAX_WEBHOOK_DESCRIPTION_LENGTH, normalizeEventTypes } from './endpoints/webhook-endpoint-rules';
export type { WebhookDeliveryView, WebhookEndpointView } from './endpoints/webhook-endpoint.view';
