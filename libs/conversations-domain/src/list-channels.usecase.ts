import { type BusinessScope, ChannelModel, scopedFilter } from '@cmsg/dal';
import type { ListChannelsResponse } from '@cmsg/proto';

export async function listChannels(scope: BusinessScope): Promise<ListChannelsResponse> {
  const channels = await ChannelModel.find(scopedFilter(scope, {}), { public_key: 1, name: 1, phone: 1, status: 1 })
    .sort({ name: 1, _id: 1 })
    .lean<{ public_key: string; name: string; phone?: string | null; status: string }[]>();
  return {
    items: channels.map((channel) => ({ public_key: channel.public_key, name: channel.name, phone: channel.phone || undefined, status: channel.status })),
  };
}
