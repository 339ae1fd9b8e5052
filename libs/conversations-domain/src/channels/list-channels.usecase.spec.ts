import { businessScope } from '@cmsg/dal';
import { InMemoryChannels, channelRow } from '../testing/in-memory-channels';
import { listChannels } from './list-channels.usecase';

describe('listChannels', () => {
  let channels: InMemoryChannels;
  beforeEach(() => {
    channels = new InMemoryChannels();
    channels.rows.push(
      channelRow({ _id: 'c2', business_id: 'b1', public_key: 'support', name: 'Support', phone: '+5215500000002', messaging_limit: 2000 }),
      channelRow({ _id: 'c1', business_id: 'b1', public_key: 'main', name: 'Main', phone: '', max_messages_per_second: 20, status: 'disconnected' }),
      channelRow({ _id: 'c3', business_id: 'b2', public_key: 'other', name: 'Another business' }),
    );
  });

  it("answers the business's channels by name, the limit as the wire carries it and no empty phone", async () => {
    expect(await listChannels(channels, businessScope('b1'))).toEqual({
      items: [
        { public_key: 'main', name: 'Main', phone: undefined, status: 'disconnected', max_messages_per_second: 20, messaging_limit: 'unlimited' },
        { public_key: 'support', name: 'Support', phone: '+5215500000002', status: 'connected', max_messages_per_second: 80, messaging_limit: '2000' },
      ],
    });
  });

  it("never answers another business's channels", async () => {
    expect((await listChannels(channels, businessScope('b2'))).items.map((channel) => channel.public_key)).toEqual(['other']);
    expect(await listChannels(channels, businessScope('b3'))).toEqual({ items: [] });
  });
});
