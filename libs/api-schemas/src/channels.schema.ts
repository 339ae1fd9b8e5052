import {
  DEFAULT_MESSAGES_PER_SECOND,
  MAX_MESSAGES_PER_SECOND,
  MESSAGING_LIMIT_TIERS,
  MIN_MESSAGES_PER_SECOND,
  UNLIMITED_MESSAGING,
} from './channel-limits';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

export const MaxMessagesPerSecondSchema = z
  .number()
  .int()
  .min(MIN_MESSAGES_PER_SECOND)
  .max(MAX_MESSAGES_PER_SECOND)
  .openapi({ description: `Provider calls per second for this channel, at most (default ${DEFAULT_MESSAGES_PER_SECOND}): every replica's sends on the channel share it, live sends ahead of broadcasts, and a broadcast's own \`max_per_second\` stays within it. Above what the provider takes (\`130429\`) the channel backs off and keeps to the rate the provider was found to take (docs/broadcasts.md, "The send engine").`, example: 80 });

export const MessagingLimitSchema = z
  .union([...MESSAGING_LIMIT_TIERS.map((tier) => z.literal(tier)), z.literal(UNLIMITED_MESSAGING)])
  .openapi('MessagingLimit', {
    description: 'Unique contacts reached by business-initiated templates in a moving 24 h, as the provider tiers it (default `unlimited`). A template to a contact not reached in the last 24 h takes a unit; with none left, a single send answers 429 `MESSAGING_LIMIT_REACHED` with `Retry-After` and a running broadcast pauses (`messaging_limit`) until a unit frees.',
    example: 'unlimited',
  });

export const ChannelSchema = z
  .object({
    public_key: z.string().openapi({ description: 'Use as `channel` in a conversation reference.' }),
    name: z.string(),
    phone: z.string().nullable(),
    status: z.string(),
    max_messages_per_second: MaxMessagesPerSecondSchema,
    messaging_limit: MessagingLimitSchema,
  })
  .openapi('Channel');

export const ChannelListResponseSchema = z.object({ items: z.array(ChannelSchema) }).openapi('ChannelList');

export const ChannelParamsSchema = z.object({ public_key: z.string().min(1) });

export const UpdateChannelLimitsRequestSchema = z
  .object({ max_messages_per_second: MaxMessagesPerSecondSchema.optional(), messaging_limit: MessagingLimitSchema.optional() })
  .openapi('UpdateChannelLimitsRequest', { description: 'Only the fields sent change (as PATCH /webhook-endpoints/{uuid}): an empty body answers the channel unchanged.' });

export type Channel = z.infer<typeof ChannelSchema>;
export type ChannelListResponse = z.infer<typeof ChannelListResponseSchema>;
export type UpdateChannelLimitsRequest = z.infer<typeof UpdateChannelLimitsRequestSchema>;

export const listChannelsEndpoint = definePublicEndpoint({
  operationId: 'listChannels',
  method: 'get',
  path: '/channels',
  summary: "List the business's chat channels",
  tag: 'Channels',
  successStatus: 200,
  successDescription: 'Every channel of the business.',
  errorCodes: [],
  schemas: { response: ChannelListResponseSchema },
});

export const updateChannelLimitsEndpoint = definePublicEndpoint({
  operationId: 'updateChannelLimits',
  method: 'patch',
  path: '/channels/:public_key',
  summary: "Set a channel's sending limits",
  description:
    'Either or both of `max_messages_per_second` (1..1000) and `messaging_limit` (250, 2000, 10000, 100000 or "unlimited"). The limits are stored and shown; the send engine that enforces them is not released yet.',
  tag: 'Channels',
  successStatus: 200,
  successDescription: 'The channel as changed.',
  errorCodes: ['CHANNEL_NOT_FOUND'],
  schemas: { params: ChannelParamsSchema, body: UpdateChannelLimitsRequestSchema, response: ChannelSchema },
  requestExample: { body: { max_messages_per_second: 200, messaging_limit: 10000 } },
});
