import { updateChannelLimitsEndpoint } from '@cmsg/api-schemas';
import { toChannel } from '../mappers/channel-list.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

export const channelRoutes: readonly BusinessRoute[] = [
  businessRoute(updateChannelLimitsEndpoint, {
    call: ({ conversations }, { caller, params, body }) =>
      conversations.updateChannelLimits({
        caller,
        public_key: params.public_key,
        max_messages_per_second: body.max_messages_per_second,
        messaging_limit: body.messaging_limit === undefined ? undefined : String(body.messaging_limit),
      }),
    toResponse: toChannel,
  }),
];
