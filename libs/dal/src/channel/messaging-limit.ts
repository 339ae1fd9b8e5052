import { type MessagingLimit, type MessagingLimitTier, UNLIMITED_MESSAGING } from '@cmsg/api-schemas';

/** The channel stores a tier as a number and `unlimited` as null, so a future check compares numbers only. */
export function storedMessagingLimit(limit: MessagingLimit): number | null {
  return limit === UNLIMITED_MESSAGING ? null : limit;
}

export function publicMessagingLimit(stored: number | null | undefined): MessagingLimit {
  return stored === null || stored === undefined ? UNLIMITED_MESSAGING : (stored as MessagingLimitTier);
}
