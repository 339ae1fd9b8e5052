import { type BusinessScope, type ChannelEntity, type ContactEntity, type ContactLookupKey, type ConversationEntity, businessScope, phoneLookupKey } from '@cmsg/dal';
import { SYSTEM_AUTHOR } from '@cmsg/events';
import type { UserPreferenceRecord } from './chat-inbound-record';
import type { RecordConsent } from './ports';

/** What a user preference reads (ChannelRepository, ContactRepository, ConversationRepository in the app) and the consent port it writes through. */
export interface UserPreferencePorts {
  channels: { findByPhoneNumberIdAcrossBusinesses(phoneNumberId: string): Promise<ChannelEntity | null> };
  contacts: { findOldestOnChannel(scope: BusinessScope, channelId: string, key: ContactLookupKey): Promise<ContactEntity | null> };
  conversations: { findByContactId(scope: BusinessScope, contactId: string): Promise<ConversationEntity | null> };
  recordConsent?: RecordConsent;
}

/** The provider's preference values and the marketing consent each states (CONTRACT 10.2). */
export const MARKETING_CONSENT_OF_PREFERENCE: ReadonlyMap<string, 'opted_in' | 'opted_out'> = new Map([
  ['stop', 'opted_out'],
  ['resume', 'opted_in'],
]);

/** The one category the provider reports today; any other says nothing about our two categories. */
const MARKETING_MESSAGES = 'marketing_messages';

export type UserPreferenceOutcome =
  | { outcome: 'recorded'; contactId: string; marketing: 'opted_in' | 'opted_out' }
  | { outcome: 'ignored_preference' | 'unknown_channel' | 'unknown_contact' | 'no_consent_port' };

/**
 * A customer stopped or resumed marketing messages in the chat app: consent.marketing of the
 * contact the preference names, found as an inbound sender is (the channel by phone_number_id,
 * the oldest contact on it with the wa_id's digits), with source `provider`. A preference never
 * creates a contact: nobody to message yet means nothing to record. Redelivery is harmless, since
 * recording a category already in that status changes nothing and emits no event.
 */
export async function applyUserPreference(ports: UserPreferencePorts, record: UserPreferenceRecord): Promise<UserPreferenceOutcome> {
  const marketing = record.preference.category === MARKETING_MESSAGES ? MARKETING_CONSENT_OF_PREFERENCE.get(record.preference.value) : undefined;
  if (marketing === undefined) return { outcome: 'ignored_preference' };
  if (!ports.recordConsent) return { outcome: 'no_consent_port' };
  const channel = await ports.channels.findByPhoneNumberIdAcrossBusinesses(record.phone_number_id);
  if (!channel) return { outcome: 'unknown_channel' };
  const phoneKey = phoneLookupKey(record.preference.wa_id);
  if (!phoneKey) return { outcome: 'unknown_contact' };
  const scope = businessScope(channel.business_id);
  const contact = await ports.contacts.findOldestOnChannel(scope, channel._id, { phone_key: phoneKey });
  if (!contact) return { outcome: 'unknown_contact' };
  // The contact's conversation, when it has one, so the event can be read in its timeline context.
  const conversation = await ports.conversations.findByContactId(scope, contact._id);
  await ports.recordConsent(scope, { contactId: contact._id, conversationId: conversation?._id ?? null, consent: { marketing }, source: 'provider', author: SYSTEM_AUTHOR });
  return { outcome: 'recorded', contactId: contact._id, marketing };
}
