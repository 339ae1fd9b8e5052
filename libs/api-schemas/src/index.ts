export { API_VERSION } from './api-version';
export * from './api-token-scope';
export { MAX_JSON_BODY_BYTES, MAX_CHAT_WEBHOOK_BODY_BYTES } from './limits';
export * from './channel-limits';
export * from './common.schema';
export * from './event-types';
export * from './error-body.schema';
export * from './headers.schema';
export * from './conversation-reference.schema';
export * from './conversation-status.schema';
export * from './notes.schema';
export * from './inbox-status.schema';
export * from './pagination.schema';
export * from './conversation-list.schema';
export * from './timeline-item.schema';
export * from './conversation-timeline.schema';
export * from './contact-list.schema';
export * from './contact-write.schema';
export * from './contact-attribute.schema';
export * from './contact-event-data.schema';
export * from './contacts.endpoints';
export * from './contact-filter.schema';
export * from './channels.schema';
export * from './template.schema';
export { listTemplatesEndpoint, getTemplateEndpoint, TEMPLATE_ENDPOINTS } from './templates.endpoints';
export * from './public-endpoint';
export { PUBLIC_ENDPOINTS } from './public-endpoints';
export { buildOpenApiDocument } from './openapi';
export type { OpenApiDocument, OpenApiDocumentOptions } from './openapi';
export * from './action-objects.schema';
export * from './action-group-limits';
export * from './action-group.schema';
export { submitActionGroupEndpoint, getActionGroupEndpoint, runAiEndpoint, aiAssistanceEndpoint } from './action-groups.endpoints';
export * from './message-content.schema';
export * from './messages.schema';
export { sendTextMessageEndpoint, sendQuickReplyEndpoint, sendTemplateEndpoint, MESSAGE_ENDPOINTS } from './messages.endpoints';
export * from './object-reference.schema';
export * from './conversation-tags.schema';
export * from './conversation-mailbox.schema';
export * from './ai-assignment.schema';
export {
  assignTagsEndpoint,
  removeTagsEndpoint,
  assignMailboxEndpoint,
  assignAiEmployeeEndpoint,
  unassignAiEndpoint,
  handToHumanEndpoint,
  CONVERSATION_ACTION_ENDPOINTS,
} from './conversation-actions.endpoints';
export * from './scheduled-message.schema';
export { createScheduledMessageEndpoint, getScheduledMessageEndpoint, cancelScheduledMessageEndpoint, SCHEDULED_MESSAGE_ENDPOINTS } from './scheduled-messages.endpoints';
export * from './tester.schema';
export { createTesterContactEndpoint, testerInboundEndpoint, advanceTesterClockEndpoint, listTesterMessagesEndpoint, TESTER_ENDPOINTS } from './tester.endpoints';
export * from './files.schema';
export { requestUploadEndpoint, confirmUploadEndpoint, FILE_ENDPOINTS } from './files.endpoints';
export * from './catalog-coded';
export * from './file-types';
export * from './timeline-item.schema';
export * from './event-envelope.schema';
export { EVENT_EXAMPLES } from './event-examples';
export { WEBHOOK_DELIVERY_HEADERS } from './event-webhooks.openapi';
export { UNSCOPED_PATHS, UNSCOPED_ROUTES, CHAT_WEBHOOK_SIGNATURE_HEADER } from './unscoped-routes';
export * from './webhook-endpoint.schema';
export {
  createWebhookEndpointEndpoint,
  listWebhookEndpointsEndpoint,
  getWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  rotateWebhookSecretEndpoint,
  pingWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  redeliverWebhookEventEndpoint,
  WEBHOOK_ENDPOINT_ENDPOINTS,
} from './webhook-endpoints.endpoints';
export { listEventsEndpoint, getEventEndpoint, EVENT_ENDPOINTS, ListEventsQuerySchema, EventListResponseSchema, EventParamsSchema } from './events.endpoints';
export type { ListEventsQuery, EventListResponse } from './events.endpoints';
export * from './start-conversation.schema';
export { startConversationEndpoint, START_CONVERSATION_ENDPOINTS } from './start-conversation.endpoints';
export * from './contact-eligibility.schema';
export * from './broadcast.schema';
export {
  createBroadcastEndpoint,
  previewBroadcastEndpoint,
  listBroadcastsEndpoint,
  getBroadcastEndpoint,
  pauseBroadcastEndpoint,
  resumeBroadcastEndpoint,
  cancelBroadcastEndpoint,
  retryFailedBroadcastEndpoint,
  listBroadcastRecipientsEndpoint,
  BROADCAST_ENDPOINTS,
} from './broadcasts.endpoints';
export { WELL_FORMED_UNICODE_FORMAT, isWellFormedUnicode } from './text.schema';
