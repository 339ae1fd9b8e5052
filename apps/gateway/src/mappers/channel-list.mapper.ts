import { type Channel, type ChannelListResponse, MESSAGING_LIMIT_TIERS, type MessagingLimit, UNLIMITED_MESSAGING } from '@cmsg/api-schemas';
import type { Channel as ProtoChannel, ListChannelsResponse } from '@cmsg/proto';
import { orNull } from './upstream-fields';

export function toChannel(channel: ProtoChannel): Channel {
  return {
    public_key: channel.public_key,
    name: channel.name,
    phone: orNull(channel.phone),
    status: channel.status,
    max_messages_per_second: channel.max_messages_per_second,
    messaging_limit: messagingLimitOf(channel.messaging_limit),
  };
}

export function toChannelListResponse(response: ListChannelsResponse): ChannelListResponse {
  return { items: response.items.map(toChannel) };
}

/** The wire carries the limit as a string; the public JSON has the tiers as numbers. */
function messagingLimitOf(wire: string): MessagingLimit {
  const tier = MESSAGING_LIMIT_TIERS.find((candidate) => String(candidate) === wire);
  return tier ?? UNLIMITED_MESSAGING;
}
