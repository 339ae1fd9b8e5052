import type { BusinessScope, ChannelEntity, ContactEntity, ContactLookupKey, ConversationEntity } from '@cmsg/dal';
import { type UserPreferencePorts, applyUserPreference } from './apply-user-preference.usecase';
import type { UserPreferenceRecord } from './chat-inbound-record';
import type { KeywordConsent } from './ports';

function channel(business: string, id: string, phoneNumberId: string): ChannelEntity {
  return { _id: id, business_id: business, public_key: id, name: id, phone: '', phone_number_id: phoneNumberId, access_token: '', default_scheduled_template: null, status: 'connected', business_account_id: null, max_messages_per_second: 80, messaging_limit: null };
}

function contact(business: string, id: string, channelId: string, phoneKey: string, createdAt: string): ContactEntity {
  return { _id: id, business_id: business, channel_id: channelId, phone: `+${phoneKey}`, phone_key: phoneKey, created_at: new Date(createdAt) } as unknown as ContactEntity;
}

/** Consent as recordConsent keeps it: a category already in that status changes nothing. */
class InMemoryUserPreferencePorts implements UserPreferencePorts {
  readonly channelRows = [channel('b1', 'c1', 'pn-1'), channel('b2', 'c2', 'pn-2')];
  readonly contactRows = [
    contact('b1', 'k-new', 'c1', '16505551234', '2026-01-02T00:00:00Z'),
    contact('b1', 'k-old', 'c1', '16505551234', '2026-01-01T00:00:00Z'),
    contact('b2', 'k-other-business', 'c2', '16505551234', '2025-01-01T00:00:00Z'),
  ];
  readonly conversationRows = [{ _id: 'conv-old', business_id: 'b1', contact_id: 'k-old' }];
  readonly marketing = new Map<string, string>();
  readonly changes: { scope: BusinessScope; update: KeywordConsent; from: string; to: string }[] = [];

  channels = { findByPhoneNumberIdAcrossBusinesses: async (phoneNumberId: string) => this.channelRows.find((row) => row.phone_number_id === phoneNumberId) ?? null };

  contacts = {
    findOldestOnChannel: async (scope: BusinessScope, channelId: string, key: ContactLookupKey) =>
      this.contactRows
        .filter((row) => row.business_id === scope.businessId && row.channel_id === channelId && 'phone_key' in key && row.phone_key === key.phone_key)
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())[0] ?? null,
  };

  conversations = {
    findByContactId: async (scope: BusinessScope, contactId: string) =>
      (this.conversationRows.find((row) => row.business_id === scope.businessId && row.contact_id === contactId) as unknown as ConversationEntity | undefined) ?? null,
  };

  recordConsent = async (scope: BusinessScope, update: KeywordConsent) => {
    const from = this.marketing.get(update.contactId) ?? 'unknown';
    const to = update.consent.marketing!;
    if (from === to) return;
    this.marketing.set(update.contactId, to);
    this.changes.push({ scope, update, from, to });
  };
}

function preference(phoneNumberId: string, waId: string, value: string, category = 'marketing_messages'): UserPreferenceRecord {
  return { kind: 'user_preference', phone_number_id: phoneNumberId, preference: { wa_id: waId, category, value, timestamp: '1731705721' }, received_at: '2026-01-01T00:00:00.000Z' };
}

describe('applyUserPreference', () => {
  let ports: InMemoryUserPreferencePorts;
  beforeEach(() => (ports = new InMemoryUserPreferencePorts()));

  it('stop opts the oldest contact on the channel out of marketing, source provider, within its business and with its conversation', async () => {
    await expect(applyUserPreference(ports, preference('pn-1', '+1 650 555 1234', 'stop'))).resolves.toEqual({ outcome: 'recorded', contactId: 'k-old', marketing: 'opted_out' });
    expect(ports.changes).toEqual([
      {
        scope: expect.objectContaining({ businessId: 'b1' }),
        update: { contactId: 'k-old', conversationId: 'conv-old', consent: { marketing: 'opted_out' }, source: 'provider', author: { type: 'system', uuid: null, name: null } },
        from: 'unknown',
        to: 'opted_out',
      },
    ]);
  });

  it('resume opts back in; a contact without a conversation is recorded without one', async () => {
    await applyUserPreference(ports, preference('pn-2', '16505551234', 'stop'));
    await applyUserPreference(ports, preference('pn-2', '16505551234', 'resume'));
    expect(ports.changes.map((change) => [change.update.contactId, change.update.conversationId, change.from, change.to])).toEqual([
      ['k-other-business', null, 'unknown', 'opted_out'],
      ['k-other-business', null, 'opted_out', 'opted_in'],
    ]);
  });

  it('is redelivery-safe: the same preference twice changes consent once', async () => {
    await applyUserPreference(ports, preference('pn-1', '16505551234', 'stop'));
    await applyUserPreference(ports, preference('pn-1', '16505551234', 'stop'));
    expect(ports.changes).toHaveLength(1);
    expect(ports.marketing.get('k-old')).toBe('opted_out');
  });

  it('records nothing for an unknown channel, an unknown contact, another category or value, or without a consent port', async () => {
    await expect(applyUserPreference(ports, preference('pn-9', '16505551234', 'stop'))).resolves.toEqual({ outcome: 'unknown_channel' });
    await expect(applyUserPreference(ports, preference('pn-1', '34600000000', 'stop'))).resolves.toEqual({ outcome: 'unknown_contact' });
    await expect(applyUserPreference(ports, preference('pn-1', 'not-a-phone', 'stop'))).resolves.toEqual({ outcome: 'unknown_contact' });
    await expect(applyUserPreference(ports, preference('pn-1', '16505551234', 'stop', 'offers'))).resolves.toEqual({ outcome: 'ignored_preference' });
    await expect(applyUserPreference(ports, preference('pn-1', '16505551234', 'interested'))).resolves.toEqual({ outcome: 'ignored_preference' });
    await expect(applyUserPreference({ ...ports, channels: ports.channels, contacts: ports.contacts, conversations: ports.conversations, recordConsent: undefined }, preference('pn-1', '16505551234', 'stop'))).resolves.toEqual({
      outcome: 'no_consent_port',
    });
    expect(ports.changes).toEqual([]);
  });
});
