/**
 * A channel's sending limits (CONTRACT 10.5): stored on the channel, set by the seed file and
 * PATCH /channels/{public_key}, enforced by the send engine (libs/send-engine).
 */
export const MIN_MESSAGES_PER_SECOND = 1;
export const MAX_MESSAGES_PER_SECOND = 1000;
/** The Cloud API's default throughput per business number. */
export const DEFAULT_MESSAGES_PER_SECOND = 80;

/** The provider's messaging-limit tiers: unique contacts reached by business-initiated templates in a moving 24 h. */
export const MESSAGING_LIMIT_TIERS = [250, 2000, 10000, 100000] as const;
export const UNLIMITED_MESSAGING = 'unlimited';

export type MessagingLimitTier = (typeof MESSAGING_LIMIT_TIERS)[number];
export type MessagingLimit = MessagingLimitTier | typeof UNLIMITED_MESSAGING;

export function isMessagingLimit(value: unknown): value is MessagingLimit {
  return value === UNLIMITED_MESSAGING || (MESSAGING_LIMIT_TIERS as readonly unknown[]).includes(value);
}
