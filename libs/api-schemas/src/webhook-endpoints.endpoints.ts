import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import {
  CreateWebhookEndpointRequestSchema,
  CreatedWebhookEndpointSchema,
  RotateWebhookSecretResponseSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookDeliveryListQuerySchema,
  WebhookDeliveryListResponseSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliverySchema,
  WebhookEndpointListQuerySchema,
  WebhookEndpointListResponseSchema,
  WebhookEndpointParamsSchema,
  WebhookEndpointSchema,
} from './webhook-endpoint.schema';

const TAG = 'Webhook endpoints';

export const createWebhookEndpointEndpoint = definePublicEndpoint({
  operationId: 'createWebhookEndpoint',
  method: 'post',
  path: '/webhook-endpoints',
  summary: 'Register a webhook endpoint: the events it receives, signed with a new secret',
  description:
    'At most 20 endpoints per business (WEBHOOK_ENDPOINT_LIMIT_REACHED). The answer carries the secret (whsec_...), shown here and on rotation only. Deliveries: docs/webhooks.md (Standard Webhooks headers, retries for 24 h, disabled after 3 days of failures).',
  tag: TAG,
  successStatus: 201,
  successDescription: 'The endpoint, enabled, with its secret.',
  errorCodes: ['WEBHOOK_ENDPOINT_LIMIT_REACHED'],
  schemas: { body: CreateWebhookEndpointRequestSchema, response: CreatedWebhookEndpointSchema },
  requestExample: {
    body: { url: 'https://crm.example.com/hooks/cmsg', events: ['message.received', 'conversation.inbox_status_changed'], description: 'CRM sync' },
  },
});

export const listWebhookEndpointsEndpoint = definePublicEndpoint({
  operationId: 'listWebhookEndpoints',
  method: 'get',
  path: '/webhook-endpoints',
  summary: 'List the webhook endpoints, oldest first (no secrets)',
  tag: TAG,
  successStatus: 200,
  successDescription: 'One page of endpoints.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: WebhookEndpointListQuerySchema, response: WebhookEndpointListResponseSchema },
  requestExample: { query: { limit: '20' } },
});

export const getWebhookEndpointEndpoint = definePublicEndpoint({
  operationId: 'getWebhookEndpoint',
  method: 'get',
  path: '/webhook-endpoints/:uuid',
  summary: 'One webhook endpoint (no secret)',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The endpoint.',
  errorCodes: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  schemas: { params: WebhookEndpointParamsSchema, response: WebhookEndpointSchema },
});

export const updateWebhookEndpointEndpoint = definePublicEndpoint({
  operationId: 'updateWebhookEndpoint',
  method: 'patch',
  path: '/webhook-endpoints/:uuid',
  summary: 'Change the URL, events, description, or enable or disable the endpoint',
  description: 'Disabling stops its deliveries (pending ones fail when they come due; redeliver them after enabling it again). A new URL is checked as on creation.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The endpoint as changed.',
  errorCodes: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  schemas: { params: WebhookEndpointParamsSchema, body: UpdateWebhookEndpointRequestSchema, response: WebhookEndpointSchema },
  requestExample: { body: { events: ['*'], enabled: true } },
});

export const deleteWebhookEndpointEndpoint = definePublicEndpoint({
  operationId: 'deleteWebhookEndpoint',
  method: 'delete',
  path: '/webhook-endpoints/:uuid',
  summary: 'Delete a webhook endpoint',
  description: 'Answers 200 with the endpoint as it was (as DELETE /scheduled-messages/{uuid} does); a second DELETE is WEBHOOK_ENDPOINT_NOT_FOUND. Its queued deliveries are not sent.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The deleted endpoint.',
  errorCodes: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  schemas: { params: WebhookEndpointParamsSchema, response: WebhookEndpointSchema },
});

export const rotateWebhookSecretEndpoint = definePublicEndpoint({
  operationId: 'rotateWebhookSecret',
  method: 'post',
  path: '/webhook-endpoints/:uuid/rotate-secret',
  summary: 'Replace the signing secret; the previous one keeps signing beside it for 24 h',
  description: 'During the overlap every delivery carries one signature per live secret (webhook-signature: "v1,<new> v1,<old>"; X-Webhook-Signature: t=..,v1=<new>,v1=<old>), so the receiver can switch at any moment.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The new secret (shown this once).',
  errorCodes: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  schemas: { params: WebhookEndpointParamsSchema, response: RotateWebhookSecretResponseSchema },
});

export const pingWebhookEndpointEndpoint = definePublicEndpoint({
  operationId: 'pingWebhookEndpoint',
  method: 'post',
  path: '/webhook-endpoints/:uuid/ping',
  summary: 'Send a ping event to this endpoint',
  description: 'A ping reaches the endpoint whatever it subscribes to: conversation null, sequence 0, data {}. Follow it in the deliveries list by its event_id.',
  tag: TAG,
  successStatus: 202,
  successDescription: 'The ping is queued; its delivery.',
  errorCodes: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  schemas: { params: WebhookEndpointParamsSchema, response: WebhookDeliverySchema },
});

export const listWebhookDeliveriesEndpoint = definePublicEndpoint({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/webhook-endpoints/:uuid/deliveries',
  summary: "The endpoint's deliveries, newest first: status, attempts, last answer, next attempt",
  description: 'Kept 30 days. status filters and is bound into the cursor (a cursor used with another status is INVALID_CURSOR).',
  tag: TAG,
  successStatus: 200,
  successDescription: 'One page of deliveries.',
  errorCodes: ['WEBHOOK_ENDPOINT_NOT_FOUND', 'INVALID_CURSOR'],
  schemas: { params: WebhookEndpointParamsSchema, query: WebhookDeliveryListQuerySchema, response: WebhookDeliveryListResponseSchema },
  requestExample: { query: { status: 'failed', limit: '50' } },
});

export const redeliverWebhookEventEndpoint = definePublicEndpoint({
  operationId: 'redeliverWebhookEvent',
  method: 'post',
  path: '/webhook-endpoints/:uuid/deliveries/:event_id/redeliver',
  summary: 'Send an event to this endpoint again',
  description: 'The same body (same id: receivers drop duplicates by webhook-id), due now, with a new run of attempts and 24 h of retries. An event the endpoint never had: EVENT_NOT_FOUND.',
  tag: TAG,
  successStatus: 202,
  successDescription: 'The delivery is queued again.',
  errorCodes: ['WEBHOOK_ENDPOINT_NOT_FOUND', 'EVENT_NOT_FOUND'],
  schemas: { params: WebhookDeliveryParamsSchema, response: WebhookDeliverySchema },
});

export const WEBHOOK_ENDPOINT_ENDPOINTS: readonly PublicEndpoint[] = [
  createWebhookEndpointEndpoint,
  listWebhookEndpointsEndpoint,
  getWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  rotateWebhookSecretEndpoint,
  pingWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  redeliverWebhookEventEndpoint,
];
