import type { BusinessScope, ChannelEntity } from '@cmsg/dal';
import type { ListChannelsResponse } from '@cmsg/proto';
import { toChannelMessage } from './channel-view';

/** The business's channels by name (ChannelRepository in the app). */
export interface ChannelListing {
  listByName(scope: BusinessScope): Promise<ChannelEntity[]>;
}

export async function listChannels(channels: ChannelListing, scope: BusinessScope): Promise<ListChannelsResponse> {
  const rows = await channels.listByName(scope);
  return { items: rows.map(toChannelMessage) };
}
