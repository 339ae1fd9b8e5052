import type { ChannelListResponse } from '@cmsg/api-schemas';
import type { ListChannelsResponse } from '@cmsg/proto';
import { orNull } from './upstream-fields';

export function toChannelListResponse(response: ListChannelsResponse): ChannelListResponse {
  return {
    items: response.items.map((channel) => ({ public_key: channel.public_key, name: channel.name, phone: orNull(channel.phone), status: channel.status })),
  };
}
