import type { BusinessScope, ChannelEntity } from '@cmsg/dal';
import type { ChannelListing } from '../channels/list-channels.usecase';

/** A stored channel with the schema's defaults; `overrides` sets what a spec cares about. */
export function channelRow(overrides: Partial<ChannelEntity> & Pick<ChannelEntity, '_id' | 'business_id' | 'public_key'>): ChannelEntity {
  return {
    name: overrides.public_key,
    phone: '',
    phone_number_id: `pn-${overrides._id}`,
    access_token: '',
    default_scheduled_template: null,
    status: 'connected',
    business_account_id: null,
    max_messages_per_second: 80,
    messaging_limit: null,
    ...overrides,
  };
}

/** The channels collection in memory, ordered as the repository orders it (name, _id). */
export class InMemoryChannels implements ChannelListing {
  readonly rows: ChannelEntity[] = [];

  async listByName(scope: BusinessScope): Promise<ChannelEntity[]> {
    return this.rows
      .filter((row) => row.business_id === scope.businessId)
      .sort((a, b) => (a.name === b.name ? a._id.localeCompare(b._id) : a.name.localeCompare(b.name)));
  }
}
