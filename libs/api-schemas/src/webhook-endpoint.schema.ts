import { DateTimeSchema, UuidSchema } from './common.schema';
import { EVENT_TYPES } from './event-envelope.schema';
import { ALL_EVENT_TYPES } from './event-types';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { z } from './zod';

/** Limits of an endpoint's fields (the conversations service checks the same). */
export const WEBHOOK_ENDPOINT_FIELD_LIMITS = { urlLength: 2048, descriptionLength: 500 } as const;

const SubscribedEventsSchema = z
  .array(z.enum([...EVENT_TYPES, ALL_EVENT_TYPES]))
  .min(1)
  .max(EVENT_TYPES.length)
  .openapi({
    description: 'The event types the endpoint receives, or ["*"] for all of them (types added later included); "*" stands alone. A ping reaches the endpoint whatever it subscribes to.',
    example: ['message.received', 'conversation.inbox_status_changed'],
  });

const WebhookUrlSchema = z
  .string()
  .min(1)
  .max(WEBHOOK_ENDPOINT_FIELD_LIMITS.urlLength)
  .openapi({
    description:
      'https, and a host whose every address (DNS) is public: not loopback, private (RFC 1918, fc00::/7), link-local, unspecified or otherwise reserved (INVALID_REQUEST otherwise). Checked again before every delivery. With WEBHOOK_ALLOW_PRIVATE_URLS=true (tests, local demos) http and non-public hosts are accepted, but a public host still needs https.',
    example: 'https://crm.example.com/hooks/cmsg',
  });

const DescriptionSchema = z.string().max(WEBHOOK_ENDPOINT_FIELD_LIMITS.descriptionLength);

export const WebhookEndpointParamsSchema = z.object({ uuid: UuidSchema });

export const WebhookDeliveryParamsSchema = z.object({ uuid: UuidSchema, event_id: UuidSchema.openapi({ description: 'The event id (the envelope id and the webhook-id header).' }) });

export const CreateWebhookEndpointRequestSchema = z
  .object({ url: WebhookUrlSchema, events: SubscribedEventsSchema, description: DescriptionSchema.nullable().optional() })
  .openapi('CreateWebhookEndpointRequest');

export const UpdateWebhookEndpointRequestSchema = z
  .object({
    url: WebhookUrlSchema.optional(),
    events: SubscribedEventsSchema.optional(),
    description: DescriptionSchema.nullable().optional().openapi({ description: 'null clears it.' }),
    enabled: z.boolean().optional().openapi({ description: 'false stops deliveries (pending ones fail); true also forgets earlier failures.' }),
  })
  .openapi('UpdateWebhookEndpointRequest', { description: 'Only the fields sent change.' });

export const WebhookEndpointSchema = z
  .object({
    uuid: UuidSchema,
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean().openapi({ description: 'false: disabled by a PATCH, or after failing every delivery for 3 days.' }),
    created_at: DateTimeSchema,
  })
  .openapi('WebhookEndpoint');

const SecretSchema = z.string().openapi({
  description: 'whsec_ followed by base64: the Standard Webhooks signing secret. Shown on creation and rotation only.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({ secret: SecretSchema }).openapi('CreatedWebhookEndpoint');

export const WebhookEndpointListQuerySchema = PaginationQuerySchema;

export const WebhookEndpointListResponseSchema = pageOf(WebhookEndpointSchema, 'WebhookEndpointList');

export const RotateWebhookSecretResponseSchema = z.object({ secret: SecretSchema }).openapi('RotatedWebhookSecret');

export const WebhookDeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']).openapi('WebhookDeliveryStatus');

export const WebhookDeliverySchema = z
  .object({
    event_id: UuidSchema,
    type: z.string(),
    status: WebhookDeliveryStatusSchema,
    attempts: z.number().int().min(0),
    last_attempt_at: DateTimeSchema.nullable(),
    last_status_code: z.number().int().nullable().openapi({ description: 'The HTTP status of the last attempt; null when it got none (timeout, refused connection).' }),
    next_attempt_at: DateTimeSchema.nullable().openapi({ description: 'Pending only: when it is attempted next.' }),
  })
  .openapi('WebhookDelivery');

export const WebhookDeliveryListQuerySchema = PaginationQuerySchema.extend({ status: WebhookDeliveryStatusSchema.optional() });

export const WebhookDeliveryListResponseSchema = pageOf(WebhookDeliverySchema, 'WebhookDeliveryList');

export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequestSchema>;
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequestSchema>;
export type WebhookEndpointBody = z.infer<typeof WebhookEndpointSchema>;
export type WebhookDeliveryBody = z.infer<typeof WebhookDeliverySchema>;
