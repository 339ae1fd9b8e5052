import { businessScope } from '@cmsg/dal';
import { InMemorySchedulingWorld } from '../testing/in-memory-scheduling-ports';
import { addBusiness, addChannel } from '../testing/scheduling-builders';
import { createTesterContact } from './create-tester-contact.usecase';

const scope = businessScope('b1');
const NOW = '2026-03-02T12:00:00.000Z';

describe('createTesterContact', () => {
  let world: InMemorySchedulingWorld;
  let support: string;

  beforeEach(() => {
    world = new InMemorySchedulingWorld(NOW);
    addBusiness(world, 'b1');
    addBusiness(world, 'b2');
    support = addChannel(world, 'b1', 'support', 'key-support');
    addChannel(world, 'b1', 'billing', 'key-billing');
    addChannel(world, 'b2', 'theirs', 'key-theirs');
  });

  it('creates a tester contact and its one conversation, each with its created event, and answers the public contact', async () => {
    const answer = await createTesterContact(scope, { first_name: 'Tess', last_name: 'Ter', phone: '+52 1 55 0000 1111', chat_username: '@Tess', channel: 'key-support' }, world.ports());
    const [contact] = world.contacts;
    const [conversation] = world.conversations;

    expect(world.contacts).toHaveLength(1);
    expect(contact).toMatchObject({
      business_id: 'b1',
      channel_id: support,
      first_name: 'Tess',
      last_name: 'Ter',
      phone: '+5215500001111',
      phone_key: '5215500001111',
      chat_username: 'Tess',
      username_key: 'tess',
      acquisition_source: 'tester',
      is_tester: true,
      created_at: new Date(NOW),
    });
    expect(contact!.outbox).toEqual([expect.objectContaining({ type: 'contact.created', conversation_id: conversation!._id })]);
    expect(world.conversations).toHaveLength(1);
    expect(conversation).toMatchObject({
      business_id: 'b1',
      contact_id: contact!._id,
      channel_id: support,
      contact: { name: 'Tess Ter', phone: '+5215500001111' },
      inbox_status: 'resolved',
      is_tester: true,
      sort_at: new Date(NOW),
    });
    expect(conversation!.outbox).toEqual([expect.objectContaining({ type: 'conversation.created', conversation_id: conversation!._id })]);
    expect(world.recorded.map((event) => [event.collection, event.documentId, event.entry.type])).toEqual([
      ['conversations', conversation!._id, 'conversation.created'],
      ['contacts', contact!._id, 'contact.created'],
    ]);
    expect(answer).toEqual({
      conversation_uuid: conversation!._id,
      contact: expect.objectContaining({
        uuid: contact!._id,
        first_name: 'Tess',
        last_name: 'Ter',
        full_name: 'Tess Ter',
        chat_id: '5215500001111',
        chat_username: 'Tess',
        phone: '+5215500001111',
        acquisition_source: 'tester',
        is_tester: true,
        channel: 'key-support',
        conversation_uuid: conversation!._id,
        attributes: {},
        consent: { marketing: { status: 'unknown', source: undefined, updated_at: undefined }, utility: { status: 'unknown', source: undefined, updated_at: undefined } },
        created_at: NOW,
      }),
    });
  });

  it("defaults to a contact named Tester on the business's first channel by name", async () => {
    const answer = await createTesterContact(scope, {}, world.ports());
    expect(answer.contact).toMatchObject({ first_name: 'Tester', full_name: 'Tester', channel: 'key-billing', phone: undefined, chat_id: undefined, chat_username: undefined });
    expect(world.contacts[0]).toMatchObject({ first_name: 'Tester', last_name: null, phone: null, phone_key: null, chat_username: null, username_key: null });
  });

  it('writes the contact before its conversation: a failure between leaves no conversation without its contact', async () => {
    const ports = world.ports();
    const failing = { ...ports, conversations: { createIfAbsent: async () => Promise.reject(new Error('database down')) } };
    await expect(createTesterContact(scope, {}, failing)).rejects.toThrow('database down');
    expect(world.contacts).toHaveLength(1);
    expect(world.recorded).toEqual([]);

    const contactFails = { ...ports, contacts: { insertIfAbsent: async () => Promise.reject(new Error('database down')) } };
    await expect(createTesterContact(scope, {}, contactFails)).rejects.toThrow('database down');
    expect(world.conversations).toHaveLength(0);
  });

  it("answers CHANNEL_NOT_FOUND for an unknown public key and for another business's channel, writing nothing", async () => {
    for (const key of ['no-such-channel', 'key-theirs']) {
      await expect(createTesterContact(scope, { channel: key }, world.ports())).rejects.toMatchObject({
        code: 'CHANNEL_NOT_FOUND',
        message: `No channel with public key '${key}' in this business.`,
      });
    }
    expect([world.contacts, world.conversations, world.recorded]).toEqual([[], [], []]);
  });

  it('answers CHANNEL_NOT_FOUND for a business without channels', async () => {
    addBusiness(world, 'b3');
    await expect(createTesterContact(businessScope('b3'), {}, world.ports())).rejects.toMatchObject({
      code: 'CHANNEL_NOT_FOUND',
      message: 'The business has no channel for a tester conversation.',
    });
    expect(world.contacts).toEqual([]);
  });
});
