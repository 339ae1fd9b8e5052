import { type BusinessScope, type ChannelEntity, type ChannelLimitsPatch, businessScope } from '@cmsg/dal';
import { type ChannelLimitsStore, updateChannelLimits } from './update-channel-limits.usecase';

class InMemoryChannelLimits implements ChannelLimitsStore {
  readonly rows: ChannelEntity[] = [
    { _id: 'c1', business_id: 'b1', public_key: 'main', name: 'Main', phone: '+5215500000000', phone_number_id: 'pn1', access_token: '', default_scheduled_template: null, status: 'connected', business_account_id: null, max_messages_per_second: 80, messaging_limit: null },
  ];

  async findByPublicKey(scope: BusinessScope, publicKey: string): Promise<ChannelEntity | null> {
    return this.rows.find((candidate) => candidate.business_id === scope.businessId && candidate.public_key === publicKey) ?? null;
  }

  async updateLimits(scope: BusinessScope, publicKey: string, patch: ChannelLimitsPatch): Promise<ChannelEntity | null> {
    const row = this.rows.find((candidate) => candidate.business_id === scope.businessId && candidate.public_key === publicKey);
    if (!row) return null;
    if (patch.maxMessagesPerSecond !== undefined) row.max_messages_per_second = patch.maxMessagesPerSecond;
    if (patch.messagingLimit !== undefined) row.messaging_limit = patch.messagingLimit;
    return row;
  }
}

describe('updateChannelLimits', () => {
  let store: InMemoryChannelLimits;
  beforeEach(() => {
    store = new InMemoryChannelLimits();
  });

  it('sets either limit or both and answers the channel', async () => {
    expect(await updateChannelLimits(store, businessScope('b1'), { publicKey: 'main', messagingLimit: '2000' })).toMatchObject({ max_messages_per_second: 80, messaging_limit: '2000' });
    expect(store.rows[0]!.messaging_limit).toBe(2000);
    expect(await updateChannelLimits(store, businessScope('b1'), { publicKey: 'main', maxMessagesPerSecond: 1000, messagingLimit: 'unlimited' })).toEqual({
      public_key: 'main',
      name: 'Main',
      phone: '+5215500000000',
      status: 'connected',
      max_messages_per_second: 1000,
      messaging_limit: 'unlimited',
    });
    expect(store.rows[0]!.messaging_limit).toBeNull();
  });

  it.each([
    [{ maxMessagesPerSecond: 0 }],
    [{ maxMessagesPerSecond: 1001 }],
    [{ maxMessagesPerSecond: 2.5 }],
    [{ messagingLimit: '500' }],
    [{ messagingLimit: 'UNLIMITED' }],
  ])('refuses %j with INVALID_REQUEST and changes nothing', async (values) => {
    await expect(updateChannelLimits(store, businessScope('b1'), { publicKey: 'main', ...values })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(store.rows[0]).toMatchObject({ max_messages_per_second: 80, messaging_limit: null });
  });

  it('answers the channel unchanged when no limit is given', async () => {
    expect(await updateChannelLimits(store, businessScope('b1'), { publicKey: 'main' })).toMatchObject({ max_messages_per_second: 80, messaging_limit: 'unlimited' });
  });

  it('answers CHANNEL_NOT_FOUND for a key the business does not have, with or without limits', async () => {
    await expect(updateChannelLimits(store, businessScope('b2'), { publicKey: 'main', maxMessagesPerSecond: 10 })).rejects.toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
    await expect(updateChannelLimits(store, businessScope('b2'), { publicKey: 'main' })).rejects.toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
  });
});
