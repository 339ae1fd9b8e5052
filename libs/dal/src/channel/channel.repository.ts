import { DEFAULT_MESSAGES_PER_SECOND } from '@cmsg/api-schemas';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { type UpsertCounts, bulkUpsert, upsert } from '../shared/bulk-upsert';
import { TenantRepository } from '../shared/tenant-repository';
import type { ChannelEntity } from './channel.entity';
import { ChannelModel } from './channel.schema';

export interface ChannelSeedFields {
  publicKey: string;
  /** Used when the channel is created; an existing channel keeps its id. */
  idOnInsert: string;
  name: string;
  phone: string;
  phoneNumberId: string;
  accessToken: string;
  defaultScheduledTemplate: string | null;
  businessAccountId: string | null;
  /** Absent: a new channel gets the default and an existing one keeps what it has (a PATCH survives reloading an older file). */
  limits: ChannelLimitsPatch;
}

/** The fields of a PATCH /channels/{public_key}; `messagingLimit` null is `unlimited`. */
export interface ChannelLimitsPatch {
  maxMessagesPerSecond?: number;
  messagingLimit?: number | null;
}

export class ChannelRepository extends TenantRepository<ChannelEntity> {
  constructor() {
    super(ChannelModel);
  }

  findByPublicKey(scope: BusinessScope, publicKey: string): Promise<ChannelEntity | null> {
    return ChannelModel.findOne(scopedFilter(scope, { public_key: publicKey })).lean<ChannelEntity>().exec();
  }

  findByPublicKeys(scope: BusinessScope, publicKeys: readonly string[]): Promise<ChannelEntity[]> {
    return ChannelModel.find(scopedFilter(scope, { public_key: { $in: [...publicKeys] } })).lean<ChannelEntity[]>().exec();
  }

  /** The channel of an inbound webhook, whatever its business: the provider names it by phone_number_id only. */
  findByPhoneNumberIdAcrossBusinesses(phoneNumberId: string): Promise<ChannelEntity | null> {
    return ChannelModel.findOne({ phone_number_id: phoneNumberId }).lean<ChannelEntity>().exec();
  }

  /** The channels of a WhatsApp Business Account, whatever their business: a template status webhook names only the account. */
  findByBusinessAccountIdAcrossBusinesses(businessAccountId: string): Promise<ChannelEntity[]> {
    return ChannelModel.find({ business_account_id: businessAccountId }).lean<ChannelEntity[]>().exec();
  }

  /** Sets the given limits; null when the business has no such channel. */
  updateLimits(scope: BusinessScope, publicKey: string, patch: ChannelLimitsPatch): Promise<ChannelEntity | null> {
    return ChannelModel.findOneAndUpdate(scopedFilter(scope, { public_key: publicKey }), { $set: limitFields(patch) }, { new: true })
      .lean<ChannelEntity>()
      .exec();
  }

  /** Every channel of the business by name (GET /channels; the first is a tester contact's default). */
  listByName(scope: BusinessScope, limit?: number): Promise<ChannelEntity[]> {
    const query = ChannelModel.find(scopedFilter(scope, {})).sort({ name: 1, _id: 1 });
    return (limit === undefined ? query : query.limit(limit)).lean<ChannelEntity[]>().exec();
  }

  /** Channels are keyed by public key; the id is set on first insert only. */
  upsertByPublicKey(scope: BusinessScope, channels: readonly ChannelSeedFields[]): Promise<UpsertCounts> {
    return bulkUpsert(
      ChannelModel,
      channels.map((channel) =>
        upsert(
          scopedFilter(scope, { public_key: channel.publicKey }),
          {
            name: channel.name,
            phone: channel.phone,
            phone_number_id: channel.phoneNumberId,
            access_token: channel.accessToken,
            default_scheduled_template: channel.defaultScheduledTemplate,
            business_account_id: channel.businessAccountId,
            ...limitFields(channel.limits),
          },
          { _id: channel.idOnInsert, ...defaultLimitsMissingFrom(channel.limits) },
        ),
      ),
    );
  }
}

function limitFields(patch: ChannelLimitsPatch): Record<string, unknown> {
  return {
    ...(patch.maxMessagesPerSecond === undefined ? {} : { max_messages_per_second: patch.maxMessagesPerSecond }),
    ...(patch.messagingLimit === undefined ? {} : { messaging_limit: patch.messagingLimit }),
  };
}

/** $setOnInsert may not name a field $set names. */
function defaultLimitsMissingFrom(patch: ChannelLimitsPatch): Record<string, unknown> {
  return {
    ...(patch.maxMessagesPerSecond === undefined ? { max_messages_per_second: DEFAULT_MESSAGES_PER_SECOND } : {}),
    ...(patch.messagingLimit === undefined ? { messaging_limit: null } : {}),
  };
}
