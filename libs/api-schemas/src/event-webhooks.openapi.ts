import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { EVENT_ENVELOPES, EVENT_TYPES, EventEnvelopeSchema, componentNameOf } from './event-envelope.schema';
import { EVENT_EXAMPLES } from './event-examples';
import { z } from './zod';

/** Standard Webhooks headers, plus section 4's signature for receivers built before them (CONTRACT 9.2). */
export const WEBHOOK_DELIVERY_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
  legacySignature: 'X-Webhook-Signature',
} as const;

const DeliveryHeadersSchema = z.object({
  [WEBHOOK_DELIVERY_HEADERS.id]: z.string().openapi({ description: 'The event id (the envelope `id`): the same on every retry; deduplicate on it.' }),
  [WEBHOOK_DELIVERY_HEADERS.timestamp]: z
    .string()
    .regex(/^[0-9]+$/)
    .openapi({ description: 'Unix seconds of this attempt. Refuse one more than 5 minutes from your clock (replays).', example: '1767225600' }),
  [WEBHOOK_DELIVERY_HEADERS.signature]: z.string().openapi({
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per live secret of the endpoint (two for 24 h after a rotation). The HMAC key is the base64-decoded part of the `whsec_<base64>` secret. Any one matching is enough.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
  [WEBHOOK_DELIVERY_HEADERS.legacySignature]: z.string().openapi({
    description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the whole `whsec_...` secret string, as before Standard Webhooks; one `v1=` per live secret (two for 24 h after a rotation).',
    example: 't=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  }),
});

/**
 * One OpenAPI `webhooks` entry per public event type: what a subscribed endpoint receives. The
 * envelope schemas are components, so generated clients type a received event.
 */
export function registerEventWebhooks(registry: OpenAPIRegistry): void {
  registry.register('EventEnvelope', EventEnvelopeSchema);
  for (const type of EVENT_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `on${componentNameOf(type)}Event`,
      summary: `${type} event`,
      description:
        'POSTed as JSON to each enabled endpoint subscribed to this type (or to `*`), at least once. Verify the signature over the raw body before parsing it (Standard Webhooks libraries do); order by `sequence` per conversation and drop ids you already have. GET /events lists the last 30 days of events for reconciling after downtime.',
      tags: ['Events'],
      request: {
        headers: DeliveryHeadersSchema,
        body: { required: true, content: { 'application/json': { schema: EVENT_ENVELOPES[type], example: EVENT_EXAMPLES[type] } } },
      },
      responses: {
        '2XX': { description: 'Delivered: answer any 2xx within 10 s.' },
        default: {
          description:
            'Anything else, or no answer within 10 s, is retried with exponential back-off and jitter for 24 h, then the delivery is failed. An endpoint failing every delivery for 3 days is disabled.',
        },
      },
    });
  }
}
