import { businessScope } from '@cmsg/dal';
import { type ContactWorld, contactWorld, eventsOf, inMemoryContactPorts, storedContact } from './in-memory-contact-ports';
import { type ContactMergePatch, patchContact } from './patch-contact.usecase';

const mine = businessScope('b1');
const at = new Date('2026-11-29T10:00:00Z');

function world(): ContactWorld {
  const data = contactWorld();
  data.channels.push({ id: 'ch1', publicKey: 'main', business_id: 'b1' }, { id: 'ch9', publicKey: 'other', business_id: 'b2' });
  data.definitions.set('b1', [
    { key: 'plan', type: 'list', options: ['free', 'pro'], created_at: at },
    { key: 'visits', type: 'number', options: [], created_at: at },
  ]);
  data.contacts.push(
    storedContact('b1', 'ana', { first_name: 'Ana', last_name: 'Ruiz', email: 'ana@example.com', phone_key: '5215512345678', attributes: [{ k: 'plan', v: 'pro' }, { k: 'visits', v: 3 }] }),
    storedContact('b1', 'bea', { external_id: 'crm-2', external_id_key: 'b1:crm-2' }),
    storedContact('b1', 'erased', { erased_at: at }),
    storedContact('b2', 'theirs', { channel_id: 'ch9', first_name: 'Leo' }),
  );
  data.conversations.push({ _id: 'conv-ana', business_id: 'b1', contact_id: 'ana', channel_id: 'ch1', contact: { first_name: 'Ana', last_name: 'Ruiz' }, created_at: at });
  return data;
}

describe('patchContact', () => {
  let data: ContactWorld;
  const patch = (uuid: string, body: ContactMergePatch | Record<string, unknown>, scope = mine) => patchContact(inMemoryContactPorts(data, { at }), scope, { tokenUuid: 'token-1' }, uuid, body as ContactMergePatch);
  const ana = () => data.contacts.find((contact) => contact._id === 'ana')!;

  beforeEach(() => {
    data = world();
  });

  it('sets the members given, removes those set to null, leaves the rest, and emits contact.updated naming them', async () => {
    const answer = await patch('ana', { last_name: null, language: 'es', attributes: { visits: null, plan: 'free' } });
    expect(answer).toMatchObject({ uuid: 'ana', first_name: 'Ana', last_name: undefined, full_name: 'Ana', email: 'ana@example.com', language: 'es', attributes: { plan: 'free' }, conversation_uuid: 'conv-ana' });
    expect(ana()).toMatchObject({ last_name: null, last_name_key: null, language: 'es', attributes: [{ k: 'plan', v: 'free' }], updated_at: at });
    expect(eventsOf(data, 'ana')).toEqual([['contact.updated', { contact: { uuid: 'ana' }, changed: ['last_name', 'language', 'attributes.plan', 'attributes.visits'] }]]);
    expect(data.recorded[0]!.entry).toMatchObject({ conversation_id: 'conv-ana', author: { type: 'api_token', uuid: 'token-1' } });
    // Its conversation's copy of the names follows.
    expect(data.conversations[0]!.contact).toEqual({ first_name: 'Ana', last_name: null });
  });

  it('removes every attribute value with attributes: null', async () => {
    await expect(patch('ana', { attributes: null })).resolves.toMatchObject({ attributes: {} });
    expect(ana().attributes).toEqual([]);
    expect(eventsOf(data, 'ana')).toEqual([['contact.updated', { contact: { uuid: 'ana' }, changed: ['attributes.plan', 'attributes.visits'] }]]);
  });

  it('changes nothing and emits nothing when the patch repeats what is stored', async () => {
    await expect(patch('ana', { first_name: 'Ana', attributes: { plan: 'pro' } })).resolves.toMatchObject({ uuid: 'ana', first_name: 'Ana' });
    await expect(patch('ana', {})).resolves.toMatchObject({ uuid: 'ana' });
    expect(ana().revision).toBe(0);
    expect(data.recorded).toEqual([]);
  });

  it('answers INVALID_REQUEST for phone or chat_user_id, and for a text member that is not a string, changing nothing', async () => {
    await expect(patch('ana', { phone: '+5215500000000' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(patch('ana', { chat_user_id: 'u-1' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(patch('ana', { first_name: 7 })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(patch('ana', { attributes: { visits: 'many' } })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(ana().revision).toBe(0);
  });

  it('answers ATTRIBUTE_UNDEFINED for a key with no definition, even to remove it', async () => {
    await expect(patch('ana', { attributes: { colour: 'red' } })).rejects.toMatchObject({ code: 'ATTRIBUTE_UNDEFINED' });
    await expect(patch('ana', { attributes: { colour: null } })).rejects.toMatchObject({ code: 'ATTRIBUTE_UNDEFINED' });
  });

  it("answers CONTACT_NOT_FOUND for an unknown contact, an erased one and another business's, changing nothing", async () => {
    await expect(patch('nobody', { first_name: 'X' })).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(patch('erased', { first_name: 'X' })).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(patch('theirs', { first_name: 'X' })).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    expect(data.contacts.find((contact) => contact._id === 'theirs')!.first_name).toBe('Leo');
  });

  it('answers CONTACT_IDENTIFIER_CONFLICT for an external_id another contact holds, and frees it when set to null', async () => {
    await expect(patch('ana', { external_id: 'crm-2' })).rejects.toMatchObject({ code: 'CONTACT_IDENTIFIER_CONFLICT' });
    expect(ana().external_id).toBeNull();
    await patch('bea', { external_id: null });
    await expect(patch('ana', { external_id: 'crm-2' })).resolves.toMatchObject({ external_id: 'crm-2' });
  });

  it('creates the conversation of a contact that has none (a crash kept it from being created), as POST /contacts heals it', async () => {
    await patch('bea', { first_name: 'Bea' });
    expect(data.conversations.map((conversation) => conversation.contact_id)).toEqual(['ana', 'bea']);
    expect(eventsOf(data, 'bea')).toEqual([['contact.updated', { contact: { uuid: 'bea' }, changed: ['first_name'] }]]);
  });

  // Known gap: the event is planned with the conversation read before the write (none), then the
  // conversation is created, so contact.updated carries conversation null while the contact has one.
  // upsertContact names the conversation it is about to create (ids.conversationFor) instead.
  it("names, in contact.updated, the conversation the patch creates for a contact that had none", async () => {
    await patch('bea', { first_name: 'Bea' });
    expect(data.recorded.map((recorded) => recorded.entry.conversation_id)).toEqual(['conv:bea']);
  });
});
