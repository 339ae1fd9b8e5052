import type { BusinessScope } from '@cmsg/dal';
import type { ListChannelsResponse } from '@cmsg/proto';
import { repositories } from './repositories';

export async function listChannels(scope: BusinessScope): Promise<ListChannelsResponse> {
  const channels = await repositories.channels.listByName(scope);
  return {
    items: channels.map((channel) => ({ public_key: channel.public_key, name: channel.name, phone: channel.phone || undefined, status: channel.status })),
  };
}
