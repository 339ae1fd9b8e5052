import type { BusinessScope } from '@cmsg/dal';
import type { ListChannelsResponse } from '@cmsg/proto';
import { toChannelMessage } from './channel-view';
import { repositories } from '../repositories';

export async function listChannels(scope: BusinessScope): Promise<ListChannelsResponse> {
  const channels = await repositories.channels.listByName(scope);
  return { items: channels.map(toChannelMessage) };
}
