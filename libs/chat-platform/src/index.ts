export { CloudApiClient } from './cloud-api-client';
export type {
  CloudApiClientConfig,
  ChannelCredentials,
  OutboundMessage,
  SendMessageResult,
  MediaInfo,
  MediaDownload,
  DownloadOptions,
} from './cloud-api-client';
export type {
  MessageContent,
  MessageContentType,
  TextContent,
  ImageOrVideoContent,
  AudioContent,
  DocumentContent,
  InteractiveButtonsContent,
  ReplyButton,
  TemplateContent,
  TemplateHeader,
  TemplateUrlButtonParameter,
} from './message-content';
export { buildMessageRequest, CLOUD_API_LIMITS } from './message-body';
export type { CloudApiMessageRequest } from './message-body';
export { resolveRecipient, recipientFields } from './recipient';
export type { Recipient, ContactAddress, RecipientPolicy } from './recipient';
export { CloudApiFailure, isTransientCloudApiError, cloudApiErrorOf } from './cloud-api-failure';
export type { CloudApiErrorBody } from './cloud-api-failure';
export { PROVIDER_OUTCOMES, catalogCodeOfProviderCode } from './provider-outcome';
export type { ProviderOutcomeCode } from './provider-outcome';
export { THROUGHPUT_RETRY, PAIR_RATE_RETRY, sendDurationBoundMs, realSleeper } from './send-retry';
export type { Sleeper } from './send-retry';
export {
  verifyWebhookSignature,
  assertWebhookSignature,
  webhookVerifyChallenge,
  WEBHOOK_SIGNATURE_HEADER,
} from './webhook-verification';
export {
  webhookPayloadSchema,
  webhookMessagesValueSchema,
  webhookContactSchema,
  webhookMessageSchema,
  webhookStatusSchema,
  templateStatusUpdateValueSchema,
  TEMPLATE_STATUS_UPDATE_FIELD,
  userPreferenceSchema,
  userPreferencesValueSchema,
  USER_PREFERENCES_FIELD,
  inboundEventsOf,
  webhookTimestampToDate,
} from './webhook-payload';
export type {
  WebhookPayload,
  WebhookMessagesValue,
  WebhookContact,
  WebhookMessage,
  WebhookStatus,
  TemplateStatusUpdate,
  UserPreference,
  InboundEvent,
  InboundSender,
} from './webhook-payload';
