import { type ContactEntity, businessScope } from '@cmsg/dal';
import { type ContactWorld, contactWorld, eventsOf, inMemoryContactPorts, storedContact } from './in-memory-contact-ports';
import { type UpsertContactCommand, upsertContact } from './upsert-contact.usecase';

const mine = businessScope('b1');
const theirs = businessScope('b2');
const actor = { tokenUuid: 'token-1' };
const at = new Date('2026-11-29T10:00:00Z');
const PHONE_KEY = '5215512345678';
const NEW_ANA = `contact:ch1:phone:${PHONE_KEY}`;

function world(): ContactWorld {
  const data = contactWorld();
  data.channels.push({ id: 'ch1', publicKey: 'main', business_id: 'b1' }, { id: 'ch9', publicKey: 'other', business_id: 'b2' });
  data.definitions.set('b1', [
    { key: 'plan', type: 'list', options: ['free', 'pro'], created_at: at },
    { key: 'visits', type: 'number', options: [], created_at: at },
  ]);
  return data;
}

describe('upsertContact', () => {
  let data: ContactWorld;
  const upsert = (command: UpsertContactCommand, scope = mine) => upsertContact(inMemoryContactPorts(data, { at }), scope, actor, command);
  const stored = (id: string) => data.contacts.find((contact) => contact._id === id);

  beforeEach(() => {
    data = world();
  });

  it('creates a contact from a phone with the id an inbound message would give it, its conversation, and contact.created', async () => {
    const answer = await upsert({ phone: '+52 1 (55) 1234-5678', first_name: 'Ana', attributes: { plan: 'pro' } });
    expect(answer).toMatchObject({
      created: true,
      contact: { uuid: NEW_ANA, phone: `+${PHONE_KEY}`, first_name: 'Ana', channel: 'main', acquisition_source: 'api', attributes: { plan: 'pro' }, conversation_uuid: `conv:${NEW_ANA}` },
    });
    expect(answer.contact!.consent).toEqual({ marketing: { status: 'unknown', source: undefined, updated_at: undefined }, utility: { status: 'unknown', source: undefined, updated_at: undefined } });
    expect(data.conversations).toEqual([expect.objectContaining({ _id: `conv:${NEW_ANA}`, business_id: 'b1', contact_id: NEW_ANA, channel_id: 'ch1', contact: { first_name: 'Ana', last_name: null } })]);
    // A new contact's fields are not "updated": only contact.created, with its conversation.
    expect(eventsOf(data, NEW_ANA)).toEqual([['contact.created', { contact: { uuid: NEW_ANA } }]]);
    expect(data.recorded[0]!.entry).toMatchObject({ conversation_id: `conv:${NEW_ANA}`, author: { type: 'api_token', uuid: 'token-1' } });
    // Recorded, so taken out of the contact's outbox.
    expect(stored(NEW_ANA)!.outbox).toEqual([]);
  });

  it('records the consent given on create as contact.consent_changed from unknown, source api', async () => {
    const answer = await upsert({ phone: PHONE_KEY, consent: { marketing: 'opted_out' } });
    expect(answer.contact!.consent!.marketing).toEqual({ status: 'opted_out', source: 'api', updated_at: at.toISOString() });
    expect(answer.contact!.consent!.utility!.status).toBe('unknown');
    expect(eventsOf(data, NEW_ANA)).toEqual([
      ['contact.created', { contact: { uuid: NEW_ANA } }],
      ['contact.consent_changed', { contact: { uuid: NEW_ANA }, category: 'marketing', from: 'unknown', to: 'opted_out', source: 'api' }],
    ]);
  });

  it('updates the contact the phone matches (digits, within the channel) with the given fields, emitting contact.updated once', async () => {
    await upsert({ phone: '+52 1 55 1234 5678', first_name: 'Ana' });
    const answer = await upsert({ phone: PHONE_KEY, last_name: 'Ruiz', email: 'ana@example.com' });
    expect(answer).toMatchObject({ created: false, contact: { uuid: NEW_ANA, first_name: 'Ana', last_name: 'Ruiz', email: 'ana@example.com', full_name: 'Ana Ruiz' } });
    expect(data.contacts).toHaveLength(1);
    // Its conversation's copy of the names is refreshed.
    expect(data.conversations[0]!.contact).toEqual({ first_name: 'Ana', last_name: 'Ruiz' });
    expect(eventsOf(data, NEW_ANA).slice(1)).toEqual([['contact.updated', { contact: { uuid: NEW_ANA }, changed: ['last_name', 'email'] }]]);
    // The same request again changes nothing and emits nothing.
    await expect(upsert({ phone: PHONE_KEY, last_name: 'Ruiz', email: 'ana@example.com' })).resolves.toMatchObject({ created: false, contact: { uuid: NEW_ANA } });
    expect(eventsOf(data, NEW_ANA)).toHaveLength(2);
  });

  it('records a consent change on update as contact.consent_changed, and nothing when it is already in that status', async () => {
    await upsert({ phone: PHONE_KEY, consent: { marketing: 'opted_in' } });
    await upsert({ phone: PHONE_KEY, consent: { marketing: 'opted_in', utility: 'opted_out' } });
    expect(eventsOf(data, NEW_ANA).map(([type, event]) => [type, event['category'], event['from'], event['to']])).toEqual([
      ['contact.created', undefined, undefined, undefined],
      ['contact.consent_changed', 'marketing', 'unknown', 'opted_in'],
      ['contact.consent_changed', 'utility', 'unknown', 'opted_out'],
    ]);
  });

  it('matches by external_id alone, before chat_user_id and phone', async () => {
    data.contacts.push(storedContact('b1', 'crm', { external_id: 'crm-1', external_id_key: 'b1:crm-1', phone_key: '5215500000000' }));
    await expect(upsert({ external_id: 'crm-1', first_name: 'Bea' })).resolves.toMatchObject({ created: false, contact: { uuid: 'crm', first_name: 'Bea' } });
    // Its phone changes to one no other contact holds.
    await expect(upsert({ external_id: 'crm-1', phone: PHONE_KEY })).resolves.toMatchObject({ created: false, contact: { uuid: 'crm', phone: `+${PHONE_KEY}` } });
    expect(eventsOf(data, 'crm').map(([, event]) => event['changed'])).toEqual([['first_name'], ['phone']]);
    // A contact created for a conversation-less match is healed: the update also creates its conversation.
    expect(data.conversations.map((conversation) => conversation.contact_id)).toEqual(['crm']);
  });

  it('answers CONTACT_IDENTIFIER_CONFLICT when the identifiers match two different contacts, changing neither', async () => {
    data.contacts.push(
      storedContact('b1', 'by-external', { external_id: 'crm-1', external_id_key: 'b1:crm-1' }),
      storedContact('b1', 'by-phone', { phone_key: PHONE_KEY, phone: `+${PHONE_KEY}` }),
      storedContact('b1', 'by-user', { chat_user_id: 'u-1' }),
    );
    await expect(upsert({ external_id: 'crm-1', phone: PHONE_KEY, first_name: 'X' })).rejects.toMatchObject({ code: 'CONTACT_IDENTIFIER_CONFLICT' });
    await expect(upsert({ chat_user_id: 'u-1', phone: PHONE_KEY })).rejects.toMatchObject({ code: 'CONTACT_IDENTIFIER_CONFLICT' });
    expect(data.contacts.map((contact) => contact.first_name)).toEqual([null, null, null]);
    expect(data.recorded).toEqual([]);
  });

  it('answers INVALID_REQUEST for a create without phone or chat_user_id, and for a phone that is not 8 to 15 digits', async () => {
    await expect(upsert({ external_id: 'crm-unknown', first_name: 'Ana' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(upsert({ first_name: 'Ana' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(upsert({ phone: '+1 234 567' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(upsert({ phone: '1234567890123456' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(upsert({ phone: '12345678' })).resolves.toMatchObject({ created: true });
    await expect(upsert({ phone: '123456789012345' })).resolves.toMatchObject({ created: true });
  });

  it('needs channel when the business has several channels, and answers CHANNEL_NOT_FOUND for an unknown one or another business’s', async () => {
    await expect(upsert({ phone: PHONE_KEY, channel: 'other' })).rejects.toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
    await expect(upsert({ phone: PHONE_KEY, channel: 'nope' })).rejects.toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
    data.channels.push({ id: 'ch2', publicKey: 'second', business_id: 'b1' });
    await expect(upsert({ phone: PHONE_KEY })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(upsert({ phone: PHONE_KEY, channel: 'second' })).resolves.toMatchObject({ created: true, contact: { uuid: `contact:ch2:phone:${PHONE_KEY}`, channel: 'second' } });
    expect(data.contacts).toHaveLength(1);
  });

  it('answers CHANNEL_NOT_CONFIGURED when the business has no channel', async () => {
    data.channels = data.channels.filter((channel) => channel.business_id !== 'b1');
    await expect(upsert({ phone: PHONE_KEY })).rejects.toMatchObject({ code: 'CHANNEL_NOT_CONFIGURED' });
  });

  it('matches the phone within the channel only: the same phone on another channel is another contact', async () => {
    data.channels.push({ id: 'ch2', publicKey: 'second', business_id: 'b1' });
    await upsert({ phone: PHONE_KEY, channel: 'main' });
    await expect(upsert({ phone: PHONE_KEY, channel: 'second' })).resolves.toMatchObject({ created: true });
    expect(data.contacts.map((contact) => contact.channel_id)).toEqual(['ch1', 'ch2']);
  });

  it('answers ATTRIBUTE_UNDEFINED for a value of an undefined key and INVALID_REQUEST for a wrong type, writing nothing', async () => {
    await expect(upsert({ phone: PHONE_KEY, attributes: { colour: 'red' } })).rejects.toMatchObject({ code: 'ATTRIBUTE_UNDEFINED' });
    await expect(upsert({ phone: PHONE_KEY, attributes: { visits: 'many' } })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(upsert({ phone: PHONE_KEY, attributes: { plan: 'gold' } })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(data.contacts).toEqual([]);
  });

  it("never matches another business's contact: the same phone and external_id there make a new contact here", async () => {
    data.contacts.push(storedContact('b2', 'theirs', { channel_id: 'ch9', phone_key: PHONE_KEY, external_id: 'crm-1', external_id_key: 'b2:crm-1' }));
    await expect(upsert({ phone: PHONE_KEY, external_id: 'crm-1', first_name: 'Ana' })).resolves.toMatchObject({ created: true, contact: { uuid: NEW_ANA, external_id: 'crm-1' } });
    expect(data.contacts.find((contact) => contact._id === 'theirs')).toMatchObject({ first_name: null, business_id: 'b2' });
    await expect(upsert({ external_id: 'crm-1', first_name: 'Leo' }, theirs)).resolves.toMatchObject({ created: false, contact: { uuid: 'theirs', first_name: 'Leo' } });
  });

  it('makes one contact when a concurrent request creates the same identity first: it matches that one and updates it', async () => {
    const ports = inMemoryContactPorts(data, { at });
    data.beforeInsert = (scope, contact) => {
      data.beforeInsert = undefined;
      // The other request's contact, with the id this one is about to insert.
      data.contacts.push(storedContact(scope.businessId, contact._id, { phone_key: PHONE_KEY, phone: `+${PHONE_KEY}`, first_name: 'Ana' }));
    };
    await expect(upsertContact(ports, mine, actor, { phone: PHONE_KEY, last_name: 'Ruiz' })).resolves.toMatchObject({ created: false, contact: { uuid: NEW_ANA, first_name: 'Ana', last_name: 'Ruiz' } });
    expect(data.contacts).toHaveLength(1);
  });

  it('matches again when a concurrent create took the external_id first', async () => {
    data.beforeInsert = () => {
      data.beforeInsert = undefined;
      data.contacts.push(storedContact('b1', 'racer', { external_id: 'crm-1', external_id_key: 'b1:crm-1' }));
    };
    await expect(upsert({ phone: PHONE_KEY, external_id: 'crm-1' })).resolves.toMatchObject({ created: false, contact: { uuid: 'racer', phone: `+${PHONE_KEY}` } });
    expect(data.contacts.map((contact) => contact._id)).toEqual(['racer']);
  });

  it('creates with a random id when the sender id is held by a contact that no longer has that phone', async () => {
    data.contacts.push(storedContact('b1', NEW_ANA, { phone_key: '5215599999999' }));
    const answer = await upsert({ phone: PHONE_KEY });
    expect(answer).toMatchObject({ created: true, contact: { uuid: expect.stringMatching(/^id-\d+$/), phone: `+${PHONE_KEY}` } });
    expect(data.contacts.map((contact) => contact._id)).toEqual([NEW_ANA, answer.contact!.uuid]);
    expect(data.conversations.map((conversation) => conversation._id)).toEqual([`conv:${answer.contact!.uuid}`]);
  });

  it('answers UPDATE_FAILED when it keeps losing the race, and when the contact vanishes right after its insert', async () => {
    data.beforeInsert = (scope, contact: { _id: string }) => {
      data.contacts.push({ ...storedContact(scope.businessId, contact._id), business_id: 'elsewhere' } as ContactEntity);
    };
    await expect(upsert({ phone: PHONE_KEY })).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
    data = world();
    data.afterInsert = (_scope, contact) => {
      data.contacts = data.contacts.filter((candidate) => candidate._id !== contact._id);
    };
    await expect(upsert({ phone: PHONE_KEY })).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
    expect(data.recorded).toEqual([]);
  });

  it('creates from chat_user_id on the only channel, and matches it there next time', async () => {
    const created = await upsert({ chat_user_id: 'u-7', first_name: 'Eva' });
    expect(created).toMatchObject({ created: true, contact: { uuid: 'contact:ch1:user:u-7', chat_user_id: 'u-7', phone: undefined } });
    await expect(upsert({ chat_user_id: 'u-7', language: 'es' })).resolves.toMatchObject({ created: false, contact: { uuid: 'contact:ch1:user:u-7', language: 'es' } });
  });
});
