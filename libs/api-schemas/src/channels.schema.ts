import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

export const ChannelSchema = z
  .object({
    public_key: z.string().openapi({ description: 'Use as `channel` in a conversation reference.' }),
    name: z.string(),
    phone: z.string().nullable(),
    status: z.string(),
  })
  .openapi('Channel');

export const ChannelListResponseSchema = z.object({ items: z.array(ChannelSchema) }).openapi('ChannelList');

export type Channel = z.infer<typeof ChannelSchema>;
export type ChannelListResponse = z.infer<typeof ChannelListResponseSchema>;

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
