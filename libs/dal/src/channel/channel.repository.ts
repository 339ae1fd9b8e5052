import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import type { ChannelEntity } from './channel.entity';
import { ChannelModel } from './channel.schema';

export type StoredChannelEntity = ChannelEntity & { _id: string };

export class ChannelRepository {
  find(scope: BusinessScope, id: string): Promise<StoredChannelEntity | null> {
    return ChannelModel.findOne(scopedFilter(scope, { _id: id })).lean<StoredChannelEntity>();
  }

  findByPublicKey(scope: BusinessScope, publicKey: string): Promise<StoredChannelEntity | null> {
    return ChannelModel.findOne(scopedFilter(scope, { public_key: publicKey })).lean<StoredChannelEntity>();
  }

  /** The business's first channel by name (uuid tiebreak). */
  async firstByName(scope: BusinessScope): Promise<StoredChannelEntity | null> {
    const [first] = await ChannelModel.find(scopedFilter(scope, {})).sort({ name: 1, _id: 1 }).limit(1).lean<StoredChannelEntity[]>();
    return first ?? null;
  }
}
