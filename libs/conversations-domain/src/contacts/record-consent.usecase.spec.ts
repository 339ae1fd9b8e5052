import { businessScope } from '@cmsg/dal';
import { type ContactWorld, contactWorld, eventsOf, inMemoryContactPorts, storedContact } from './in-memory-contact-ports';
import { type ConsentUpdate, recordConsent } from './record-consent.usecase';

const mine = businessScope('b1');
const at = new Date('2026-11-29T10:00:00Z');
const customer = { type: 'contact', uuid: 'ana', name: null };

describe('recordConsent', () => {
  let data: ContactWorld;
  const record = (update: Partial<ConsentUpdate>, scope = mine) =>
    recordConsent(inMemoryContactPorts(data, { at }), scope, { contactId: 'ana', conversationId: 'conv-ana', consent: {}, source: 'keyword', author: customer, ...update });
  const consentOf = (id: string) => (data.contacts.find((contact) => contact._id === id) as unknown as { consent: Record<string, unknown> }).consent;

  beforeEach(() => {
    data = contactWorld();
    data.contacts.push(storedContact('b1', 'ana'), storedContact('b2', 'theirs'));
  });

  it('records an opt-out keyword for both categories, one contact.consent_changed each, with the source and the conversation', async () => {
    await record({ consent: { marketing: 'opted_out', utility: 'opted_out' } });
    expect(consentOf('ana')).toEqual({ marketing: { status: 'opted_out', source: 'keyword', updated_at: at }, utility: { status: 'opted_out', source: 'keyword', updated_at: at } });
    expect(eventsOf(data, 'ana')).toEqual([
      ['contact.consent_changed', { contact: { uuid: 'ana' }, category: 'marketing', from: 'unknown', to: 'opted_out', source: 'keyword' }],
      ['contact.consent_changed', { contact: { uuid: 'ana' }, category: 'utility', from: 'unknown', to: 'opted_out', source: 'keyword' }],
    ]);
    expect(data.recorded.map((recorded) => recorded.entry)).toEqual([
      expect.objectContaining({ conversation_id: 'conv-ana', author: customer }),
      expect.objectContaining({ conversation_id: 'conv-ana', author: customer }),
    ]);
  });

  it('changes nothing for a category already in that status: a repeated keyword emits nothing', async () => {
    await record({ consent: { marketing: 'opted_out' }, source: 'provider' });
    await record({ consent: { marketing: 'opted_out', utility: 'opted_in' } });
    await record({ consent: { marketing: 'opted_out', utility: 'opted_in' } });
    expect(eventsOf(data, 'ana').map(([, event]) => [event['category'], event['from'], event['to'], event['source']])).toEqual([
      ['marketing', 'unknown', 'opted_out', 'provider'],
      ['utility', 'unknown', 'opted_in', 'keyword'],
    ]);
    // The marketing status keeps the source that set it.
    expect(consentOf('ana')['marketing']).toMatchObject({ status: 'opted_out', source: 'provider' });
  });

  it('chains from/to across changes: opt-out then opt-in', async () => {
    await record({ consent: { marketing: 'opted_out' } });
    await record({ consent: { marketing: 'opted_in' } });
    expect(eventsOf(data, 'ana').map(([, event]) => [event['from'], event['to']])).toEqual([
      ['unknown', 'opted_out'],
      ['opted_out', 'opted_in'],
    ]);
  });

  it("does nothing, without failing, for a contact that is gone or is another business's", async () => {
    await expect(record({ contactId: 'nobody', consent: { marketing: 'opted_out' } })).resolves.toBeUndefined();
    await expect(record({ contactId: 'theirs', consent: { marketing: 'opted_out' } })).resolves.toBeUndefined();
    expect(consentOf('theirs')['marketing']).toMatchObject({ status: 'unknown' });
    expect(data.recorded).toEqual([]);
  });
});
