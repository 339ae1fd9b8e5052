import { MAX_MESSAGES_PER_SECOND, MESSAGING_LIMIT_TIERS, MIN_MESSAGES_PER_SECOND, type MessagingLimit, UNLIMITED_MESSAGING, isMessagingLimit } from '@cmsg/api-schemas';
import { type BusinessScope, type ChannelEntity, type ChannelLimitsPatch, storedMessagingLimit } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { Channel } from '@cmsg/proto';
import { toChannelMessage } from './channel-view';

/** What the use case writes through (ChannelRepository in the app). */
export interface ChannelLimitsStore {
  findByPublicKey(scope: BusinessScope, publicKey: string): Promise<ChannelEntity | null>;
  updateLimits(scope: BusinessScope, publicKey: string, patch: ChannelLimitsPatch): Promise<ChannelEntity | null>;
}

export interface UpdateChannelLimitsInput {
  publicKey: string;
  maxMessagesPerSecond?: number;
  /** As the wire carries it: "250" ... "100000" or "unlimited". */
  messagingLimit?: string;
}

/**
 * PATCH /channels/{public_key} (CONTRACT 10.5): stores the limits, which the send engine reads at
 * each send. Checked here too, so a gRPC caller cannot store what the API refuses.
 */
export async function updateChannelLimits(store: ChannelLimitsStore, scope: BusinessScope, input: UpdateChannelLimitsInput): Promise<Channel> {
  const patch: ChannelLimitsPatch = {
    ...(input.maxMessagesPerSecond === undefined ? {} : { maxMessagesPerSecond: checkedRate(input.maxMessagesPerSecond) }),
    ...(input.messagingLimit === undefined ? {} : { messagingLimit: storedMessagingLimit(parsedMessagingLimit(input.messagingLimit)) }),
  };
  // Only the fields sent change, so nothing sent changes nothing (an empty $set is not an update).
  const channel = Object.keys(patch).length === 0 ? await store.findByPublicKey(scope, input.publicKey) : await store.updateLimits(scope, input.publicKey, patch);
  if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `No channel ${input.publicKey} in this business.`);
  return toChannelMessage(channel);
}

function checkedRate(rate: number): number {
  if (!Number.isInteger(rate) || rate < MIN_MESSAGES_PER_SECOND || rate > MAX_MESSAGES_PER_SECOND) {
    throw new CatalogError('INVALID_REQUEST', `max_messages_per_second must be an integer from ${MIN_MESSAGES_PER_SECOND} to ${MAX_MESSAGES_PER_SECOND}.`);
  }
  return rate;
}

function parsedMessagingLimit(wire: string): MessagingLimit {
  const value = wire === UNLIMITED_MESSAGING ? wire : Number(wire);
  if (!isMessagingLimit(value)) throw new CatalogError('INVALID_REQUEST', `messaging_limit must be one of ${MESSAGING_LIMIT_TIERS.join(', ')} or "${UNLIMITED_MESSAGING}".`);
  return value;
}
