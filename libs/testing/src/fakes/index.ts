export { FakeCloudApi } from './fake-cloud-api';
export type {
  CloudApiRecord,
  CloudApiRecordFilter,
  CloudApiRequestKind,
  CloudApiRule,
  CloudApiErrorSpec,
  RegisteredMedia,
  FakeCloudApiOptions,
} from './fake-cloud-api';
export type { ThroughputOption, ThroughputScope, ThroughputSettings } from './cloud-api-throughput';
export { maxInAnyWindow, gapPercentile } from './arrival-windows';
export { FakeAiServer } from './fake-ai-server';
export type { AiRecord, AiRecordFilter, AiEndpoint, AiRule, AiErrorSpec, FakeAiServerOptions } from './fake-ai-server';
export type { FakeRuleBase } from './fake-rules';
export { FakeCloudApiRemote, FakeAiRemote } from './fake-remote-control';
export { startFakes } from './start-fakes';
export type { StartFakesOptions, RunningFakes } from './start-fakes';
export {
  signedWebhookRequest,
  inboundMessageWebhook,
  inboundTextWebhook,
  inboundMediaWebhook,
  inboundButtonReplyWebhook,
  statusWebhook,
  templateStatusWebhook,
  userPreferencesWebhook,
  fakeWamid,
  webhookTimestamp,
} from './webhook-builders';
export type {
  SignedWebhookRequest,
  WebhookSender,
  WebhookChannel,
  InboundMessageInput,
  InboundTextInput,
  InboundMediaInput,
  InboundMediaType,
  ButtonReplyInput,
  StatusInput,
  TemplateStatusInput,
  UserPreferenceInput,
} from './webhook-builders';
export { WebhookReceiver } from './webhook-receiver';
export type { ReceivedWebhook, WebhookAnswer } from './webhook-receiver';
