import { type ChannelEntity, publicMessagingLimit } from '@cmsg/dal';
import type { Channel } from '@cmsg/proto';

/** A stored channel as GET /channels shows it; the messaging limit travels as a string ("250", "unlimited"). */
export function toChannelMessage(channel: ChannelEntity): Channel {
  return {
    public_key: channel.public_key,
    name: channel.name,
    phone: channel.phone || undefined,
    status: channel.status,
    max_messages_per_second: channel.max_messages_per_second,
    messaging_limit: String(publicMessagingLimit(channel.messaging_limit)),
  };
}
