import { businessScope } from '@cmsg/dal';
import { getContact } from './get-contact.usecase';
import { contactWorld, inMemoryContactPorts, storedContact } from './in-memory-contact-ports';

const mine = businessScope('b1');
const definedAt = new Date('2026-11-01T00:00:00Z');

function world() {
  const data = contactWorld();
  data.channels.push({ id: 'ch1', publicKey: 'main', business_id: 'b1' }, { id: 'ch9', publicKey: 'other', business_id: 'b2' });
  data.definitions.set('b1', [{ key: 'plan', type: 'list', options: ['free', 'pro'], created_at: definedAt }]);
  data.contacts.push(
    storedContact('b1', 'ana', {
      first_name: 'Ana',
      last_name: 'Ruiz',
      phone: '+5215512345678',
      phone_key: '5215512345678',
      email: 'ana@example.com',
      external_id: 'crm-1',
      // `gone` was defined once: its value stays stored until the cleanup, but is not shown.
      attributes: [{ k: 'plan', v: 'pro' }, { k: 'gone', v: 'x' }],
      consent: { marketing: { status: 'opted_in', source: 'api', updated_at: definedAt }, utility: { status: 'unknown', source: null, updated_at: null } },
    }),
    storedContact('b2', 'theirs', { channel_id: 'ch9', first_name: 'Leo' }),
    storedContact('b1', 'erased', { erased_at: definedAt }),
  );
  data.conversations.push({ _id: 'conv-ana', business_id: 'b1', contact_id: 'ana', channel_id: 'ch1', contact: { first_name: 'Ana', last_name: 'Ruiz' }, created_at: definedAt });
  return data;
}

describe('getContact', () => {
  it('answers the contact in its public shape: channel key, conversation, defined attributes only, consent', async () => {
    const ports = inMemoryContactPorts(world(), { at: definedAt });
    await expect(getContact(ports, mine, 'ana')).resolves.toMatchObject({
      uuid: 'ana',
      full_name: 'Ana Ruiz',
      channel: 'main',
      phone: '+5215512345678',
      chat_id: '5215512345678',
      email: 'ana@example.com',
      external_id: 'crm-1',
      attributes: { plan: 'pro' },
      consent: { marketing: { status: 'opted_in', source: 'api', updated_at: definedAt.toISOString() }, utility: { status: 'unknown', source: undefined, updated_at: undefined } },
      conversation_uuid: 'conv-ana',
    });
  });

  it("answers CONTACT_NOT_FOUND for an unknown contact, another business's and an erased one", async () => {
    const ports = inMemoryContactPorts(world(), { at: definedAt });
    await expect(getContact(ports, mine, 'nobody')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(getContact(ports, mine, 'theirs')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(getContact(ports, mine, 'erased')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(getContact(ports, businessScope('b2'), 'theirs')).resolves.toMatchObject({ uuid: 'theirs', channel: 'other', conversation_uuid: undefined });
  });
});
