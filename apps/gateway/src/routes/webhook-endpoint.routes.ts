import {
  createWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  getWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  listWebhookEndpointsEndpoint,
  pingWebhookEndpointEndpoint,
  redeliverWebhookEventEndpoint,
  rotateWebhookSecretEndpoint,
  updateWebhookEndpointEndpoint,
} from '@cmsg/api-schemas';
import { toUpdateWebhookEndpointFields, toWebhookDelivery, toWebhookEndpoint } from '../mappers/webhook-endpoint.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

export const webhookEndpointRoutes: readonly BusinessRoute[] = [
  businessRoute(createWebhookEndpointEndpoint, {
    call: ({ webhookEndpoints }, { caller, body }) =>
      webhookEndpoints.createWebhookEndpoint({ caller, url: body.url, events: body.events, description: body.description ?? undefined }),
    toResponse: (response) => ({ ...toWebhookEndpoint(response.endpoint), secret: response.secret }),
  }),
  businessRoute(listWebhookEndpointsEndpoint, {
    call: ({ webhookEndpoints }, { caller, query }) => webhookEndpoints.listWebhookEndpoints({ caller, cursor: query.cursor ?? '', limit: query.limit }),
    toResponse: (response) => ({ items: response.items.map(toWebhookEndpoint), next_cursor: response.next_cursor, has_more: response.has_more }),
  }),
  businessRoute(getWebhookEndpointEndpoint, {
    call: ({ webhookEndpoints }, { caller, params }) => webhookEndpoints.getWebhookEndpoint({ caller, uuid: params.uuid }),
    toResponse: (response) => toWebhookEndpoint(response.endpoint),
  }),
  businessRoute(updateWebhookEndpointEndpoint, {
    call: ({ webhookEndpoints }, { caller, params, body }) => webhookEndpoints.updateWebhookEndpoint({ caller, uuid: params.uuid, ...toUpdateWebhookEndpointFields(body) }),
    toResponse: (response) => toWebhookEndpoint(response.endpoint),
  }),
  businessRoute(deleteWebhookEndpointEndpoint, {
    call: ({ webhookEndpoints }, { caller, params }) => webhookEndpoints.deleteWebhookEndpoint({ caller, uuid: params.uuid }),
    toResponse: (response) => toWebhookEndpoint(response.endpoint),
  }),
  businessRoute(rotateWebhookSecretEndpoint, {
    call: ({ webhookEndpoints }, { caller, params }) => webhookEndpoints.rotateWebhookSecret({ caller, uuid: params.uuid }),
    toResponse: (response) => ({ secret: response.secret }),
  }),
  businessRoute(pingWebhookEndpointEndpoint, {
    call: ({ webhookEndpoints }, { caller, params }) => webhookEndpoints.pingWebhookEndpoint({ caller, uuid: params.uuid }),
    toResponse: (response) => toWebhookDelivery(response.delivery),
  }),
  businessRoute(listWebhookDeliveriesEndpoint, {
    call: ({ webhookEndpoints }, { caller, params, query }) =>
      webhookEndpoints.listWebhookDeliveries({ caller, uuid: params.uuid, status: query.status ?? '', cursor: query.cursor ?? '', limit: query.limit }),
    toResponse: (response) => ({ items: response.items.map(toWebhookDelivery), next_cursor: response.next_cursor, has_more: response.has_more }),
  }),
  businessRoute(redeliverWebhookEventEndpoint, {
    call: ({ webhookEndpoints }, { caller, params }) => webhookEndpoints.redeliverWebhookEvent({ caller, uuid: params.uuid, event_id: params.event_id }),
    toResponse: (response) => toWebhookDelivery(response.delivery),
  }),
];
