import { randomUUID } from 'node:crypto';
import { ConversationRepository, MessageRepository, type OutboxEntry, TimelineEventRepository, businessScope } from '@cmsg/dal';
import { type TestBusiness, contactSeed, createTestBusiness, eventually, storedCollection } from '@cmsg/testing';
import { KafkaTopicProbe } from '@cmsg/testing/kafka';
import { eventRowsOf, eventsOfConversation, outboxOf, settledEvents, strictlyIncreasing } from './event-fixtures';

jest.setTimeout(240_000);

const WRITERS = 50;

/**
 * The outbox (docs/events.md): a change whose entry was never recorded (a crash right after the
 * write) is recorded by the conversations service's relay, from any collection with an outbox; and
 * concurrent changes of one conversation each get their event, with distinct sequences.
 */
describe('events: the outbox relay and contention', () => {
  let business: TestBusiness;
  let probe: KafkaTopicProbe;
  const tags = Array.from({ length: WRITERS }, (_, index) => ({ uuid: randomUUID(), name: `tag-${index}`, color: '#123' }));
  const conversations = { crashed: randomUUID(), contended: randomUUID(), legacy: randomUUID() };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.tags = tags;
      contactSeed(seed, { conversation: { uuid: conversations.crashed, inbox_status: 'resolved' } });
      contactSeed(seed, { conversation: { uuid: conversations.contended, inbox_status: 'resolved' } });
      contactSeed(seed, { conversation: { uuid: conversations.legacy, inbox_status: 'resolved' } });
    });
    probe = KafkaTopicProbe.forStackTopic('conversation-events');
    await probe.start();
  });

  afterAll(() => probe.stop());

  const scope = () => businessScope(business.businessId);
  const entry = (type: string, conversationId: string, data: Record<string, unknown>): OutboxEntry => ({
    id: randomUUID(),
    type,
    conversation_id: conversationId,
    data,
    author: { type: 'api_token', uuid: business.tokenUuid, name: null },
    created_at: new Date(),
  });

  it('records what a crash left in the outboxes of conversations, messages and notes, once, after the changes made before it', async () => {
    // A change recorded normally first: the crashed ones come after it in sequence.
    expect((await business.api.post('/conversation/pending', { conversation: { uuid: conversations.crashed } })).status).toBe(200);
    const [before] = await settledEvents(conversations.crashed, 1);

    // Writes made as the services make them, but nobody records their entries (the writer "crashed").
    const tagged = entry('conversation.tags_changed', conversations.crashed, { added: [tags[0]!.uuid], removed: [] });
    expect(await new ConversationRepository().addTags(scope(), conversations.crashed, [tags[0]!.uuid], tagged, new Date())).not.toBeNull();
    const messageId = randomUUID();
    await new MessageRepository().insertIfAbsent(scope(), {
      _id: messageId,
      conversation_id: conversations.crashed,
      is_from_customer: false,
      body: 'cut off',
      content_type: 'text',
      status: 'sending',
      created_at: new Date(),
    });
    const failure = { code: 'SEND_FAILED', message: 'cut off', provider_code: null };
    const failed = entry('message.status_updated', conversations.crashed, {
      uuid: messageId,
      kind: 'message',
      created_at: new Date().toISOString(),
      author: { type: 'api_token', uuid: business.tokenUuid, name: null },
      direction: 'outbound',
      content_type: 'text',
      body: 'cut off',
      media: null,
      status: 'failed',
      error: failure,
      pricing: null,
    });
    await new MessageRepository().markFailedIfSending(scope(), messageId, failure, failed);
    const noteId = randomUUID();
    const noted = entry('note.created', conversations.crashed, {
      uuid: noteId,
      kind: 'note',
      created_at: new Date().toISOString(),
      author: { type: 'api_token', uuid: business.tokenUuid, name: null },
      note: 'left behind',
    });
    await new TimelineEventRepository().insertIfAbsent(scope(), {
      id: noteId,
      conversationId: conversations.crashed,
      kind: 'note',
      body: 'left behind',
      author: { type: 'api_token', uuid: business.tokenUuid },
      createdAt: new Date(),
      outbox: [noted],
    });
    expect(await outboxOf('conversations', conversations.crashed)).toHaveLength(1);

    // The relay records entries older than its period (5 s here) on its next pass.
    const events = await settledEvents(conversations.crashed, 4);
    // Sequences follow the recording order: the relay's entries come after the change recorded before them.
    expect(events[0]!._id).toBe(before!._id);
    expect(new Set(events.slice(1).map((event) => event._id))).toEqual(new Set([tagged.id, failed.id, noted.id]));
    expect(strictlyIncreasing(events)).toBe(true);
    expect(events.find((event) => event._id === tagged.id)).toMatchObject({ type: 'conversation.tags_changed', data: tagged.data, business_slug: business.slug });
    const rows = await eventRowsOf(conversations.crashed);
    expect(rows.find((row) => row._id === tagged.id)).toMatchObject({ event_type: 'tags_changed', data: tagged.data });
    expect(await outboxOf('conversations', conversations.crashed)).toEqual([]);
    expect(await outboxOf('messages', messageId)).toEqual([]);
    expect(await outboxOf('timeline_events', noteId)).toEqual([]);
    // Recorded once, whatever number of relay passes saw it.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(await eventsOfConversation(conversations.crashed)).toHaveLength(4);
  });

  it('publishes an entry written before events existed as it was, and drops it', async () => {
    const legacy = { id: randomUUID(), type: 'conversation.mailbox_changed', payload: { business_id: business.businessId, conversation_uuid: conversations.legacy, from: null, to: null }, created_at: new Date() };
    await storedCollection('conversations').updateOne({ _id: conversations.legacy }, { $push: { outbox: legacy } } as never);
    const published = await probe.waitFor((message) => message.value?.id === legacy.id, 30_000);
    expect(published.key).toBe(conversations.legacy);
    expect(published.value).toEqual({ id: legacy.id, type: legacy.type, created_at: legacy.created_at.toISOString(), data: legacy.payload });
    await eventually(() => outboxOf('conversations', conversations.legacy), (outbox) => outbox.length === 0);
    expect(await eventsOfConversation(conversations.legacy)).toEqual([]);
  });

  it(`${WRITERS} concurrent tag changes of one conversation: ${WRITERS} events with distinct sequences, one timeline row each`, async () => {
    const responses = await Promise.all(
      tags.map((tag) => business.api.post('/conversation/tags', { conversation: { uuid: conversations.contended }, tags: [{ uuid: tag.uuid }] })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(WRITERS).fill(200));

    const events = await settledEvents(conversations.contended, WRITERS);
    expect(events).toHaveLength(WRITERS);
    expect(events.every((event) => event.type === 'conversation.tags_changed')).toBe(true);
    expect(new Set(events.flatMap((event) => event.data['added'] as string[]))).toEqual(new Set(tags.map((tag) => tag.uuid)));
    expect(new Set(events.map((event) => event.sequence)).size).toBe(WRITERS);
    const rows = await eventRowsOf(conversations.contended);
    expect(rows.map((row) => row._id).sort()).toEqual(events.map((event) => event._id).sort());
    expect(await outboxOf('conversations', conversations.contended)).toEqual([]);
    expect((await storedCollection('conversations').findOne({ _id: conversations.contended }))!['tag_ids']).toHaveLength(WRITERS);
  });
});
