import { randomUUID } from 'node:crypto';
import {
  BusinessRepository,
  ContactRepository,
  ConversationRepository,
  type EventEntity,
  EventRepository,
  type OutboxHolder,
  OutboxRepository,
  TimelineEventRepository,
  businessScope,
  ensureIndexes,
} from '@cmsg/dal';
import { BusinessSlugs } from './business-slugs';
import { connectToOwnDatabase, dropConnectedDatabase, storedCollection, watchMongoCommands } from '@cmsg/testing-database';
import { EventOutbox } from './event-outbox';
import { EventRecorder } from './event-recorder';
import { SYSTEM_AUTHOR, type SequencedEntry, outboxEntry, withConversationChange, withSequence } from './outbox-entries';
import { RecordingBus } from './testing/recording-bus';
import { RecordingFanOut } from './testing/recording-fan-out';

/**
 * The recorder against the real local MongoDB: idempotent by entry id whoever records an entry and
 * however often (two recordings, concurrent recorders, the writer racing the relay, a failure
 * halfway), with sequences that increase per conversation in recording order.
 */
describe('EventRecorder', () => {
  const businessId = randomUUID();
  const scope = businessScope(businessId);
  const conversations = new ConversationRepository();
  const contacts = new ContactRepository();
  const events = new EventRepository();
  const timeline = new TimelineEventRepository();
  const businesses = new BusinessRepository();
  const outboxes = new OutboxRepository();
  let fanOut: RecordingFanOut;
  let bus: RecordingBus;
  let recorder: EventRecorder;
  let outbox: EventOutbox;
  const errors: unknown[] = [];

  beforeAll(async () => {
    await connectToOwnDatabase('events_it', { monitorCommands: true });
    await ensureIndexes();
    await businesses.upsertFromSeed({ id: businessId, slug: 'Recorder-Biz', name: 'Recorder', timeZone: 'UTC', visionWalletTokens: 0, paymentProfile: null }, new Date());
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  beforeEach(() => {
    fanOut = new RecordingFanOut();
    bus = new RecordingBus();
    recorder = new EventRecorder({ stores: { events, conversations, timeline, contacts }, fanOut, bus, slugs: new BusinessSlugs(businesses) });
    outbox = new EventOutbox(recorder, outboxes, (error) => errors.push(error));
    errors.length = 0;
  });

  async function conversation(): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    expect(await conversations.createIfAbsent(scope, { _id: id, contact_id: randomUUID(), channel_id: 'c', sort_at: now, created_at: now, updated_at: now })).toBe(true);
    return id;
  }

  /**
   * A tag change written as the use case writes it: the change, its entry and its event's sequence
   * in one update; answered as the use case records it (with that sequence).
   */
  async function tagChange(conversationId: string, createdAt = new Date()): Promise<SequencedEntry> {
    const tag = randomUUID();
    const entry = { ...outboxEntry('conversation.tags_changed', conversationId, { added: [tag], removed: [] }, SYSTEM_AUTHOR, createdAt) };
    const changed = await conversations.addTags(scope, conversationId, [tag], entry, createdAt);
    expect(changed).not.toBeNull();
    return withSequence(entry, changed!);
  }

  const storedEvents = (conversationId: string) => storedCollection<EventEntity>('events').find({ conversation_id: conversationId }).toArray();
  const rowsOf = (conversationId: string) => storedCollection('timeline_events').find({ conversation_id: conversationId }).toArray();
  const outboxOf = async (conversationId: string) => (await conversations.findById(scope, conversationId))!.outbox;

  it('records an entry once: the event with its sequence, the timeline row, the fan-out, the topic; then the entry leaves the outbox', async () => {
    const id = await conversation();
    const entry = await tagChange(id);
    await outbox.recordQuietly('conversations', scope, id, [entry]);

    const [event] = await storedEvents(id);
    expect(event).toMatchObject({ _id: entry.id, business_id: businessId, business_slug: 'Recorder-Biz', conversation_id: id, sequence: 1, type: 'conversation.tags_changed', data: entry.data });
    expect(await rowsOf(id)).toEqual([expect.objectContaining({ _id: entry.id, kind: 'event', event_type: 'tags_changed', data: entry.data, author: SYSTEM_AUTHOR, created_at: entry.created_at })]);
    expect(fanOut.calls.map((call) => call._id)).toEqual([entry.id]);
    expect(bus.published).toEqual([
      {
        key: id,
        message: {
          id: entry.id,
          type: 'conversation.tags_changed',
          created_at: entry.created_at.toISOString(),
          data: { business_id: businessId, conversation_uuid: id, added: entry.data['added'], removed: [], actor: { type: 'system', uuid: null }, occurred_at: entry.created_at.toISOString() },
        },
      },
    ]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it('recording the same entry again changes nothing: one event, its sequence kept, one row; the fan-out sees the same event', async () => {
    const id = await conversation();
    const entry = await tagChange(id);
    await outbox.recordQuietly('conversations', scope, id, [entry]);
    await outbox.recordQuietly('conversations', scope, id, [entry]);
    const stored = await storedEvents(id);
    expect(stored).toHaveLength(1);
    expect(await rowsOf(id)).toHaveLength(1);
    expect(fanOut.calls.map((call) => [call._id, call.sequence])).toEqual([
      [entry.id, 1],
      [entry.id, 1],
    ]);
  });

  it('ten recorders of one entry at once: one event and one row, and every fan-out carries the stored event', async () => {
    const id = await conversation();
    const entry = await tagChange(id);
    await Promise.all(Array.from({ length: 10 }, () => outbox.recordQuietly('conversations', scope, id, [entry])));
    const stored = await storedEvents(id);
    expect(stored).toHaveLength(1);
    expect(await rowsOf(id)).toHaveLength(1);
    expect(new Set(fanOut.calls.map((call) => `${call._id}#${call.sequence}`))).toEqual(new Set([`${entry.id}#${stored[0]!.sequence}`]));
    expect(await outboxOf(id)).toEqual([]);
  });

  it('the writer and the relay racing over an entry: one event', async () => {
    const id = await conversation();
    // Old enough for the relay to take it.
    const entry = await tagChange(id, new Date(Date.now() - 60_000));
    await Promise.all([outbox.recordQuietly('conversations', scope, id, [entry]), outbox.flushStale(0), outbox.flushStale(0)]);
    expect(await storedEvents(id)).toHaveLength(1);
    expect(await rowsOf(id)).toHaveLength(1);
    expect(await outboxOf(id)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a crash between the change and its recording loses nothing: the relay records it, after what was recorded before', async () => {
    const id = await conversation();
    const first = await tagChange(id);
    await outbox.recordQuietly('conversations', scope, id, [first]);
    // The writer of this one never records it.
    const crashed = await tagChange(id, new Date(Date.now() - 10_000));
    expect(await outboxOf(id)).toHaveLength(1);
    // Too young for the relay: it waits.
    expect(await outbox.flushStale(60_000)).toBe(0);
    expect(await outbox.flushStale(5_000)).toBeGreaterThanOrEqual(1);
    const stored = (await storedEvents(id)).sort((a, b) => a.sequence - b.sequence);
    // The crashed change took 2 in its update; the stored entry does not hold it, so the relay takes
    // the next one and 2 stays unused (a gap, docs/events.md).
    expect(stored.map((event) => [event._id, event.sequence])).toEqual([
      [first.id, 1],
      [crashed.id, 3],
    ]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it('a fan-out that fails leaves the entry in the outbox; the relay records it later with the sequence it already had', async () => {
    const id = await conversation();
    const entry = await tagChange(id, new Date(Date.now() - 10_000));
    fanOut.failing = true;
    await outbox.recordQuietly('conversations', scope, id, [entry]);
    expect(errors).toHaveLength(1);
    expect(await outboxOf(id)).toHaveLength(1);
    const [firstTry] = await storedEvents(id);

    fanOut.failing = false;
    await outbox.flushStale(5_000);
    const stored = await storedEvents(id);
    expect(stored).toEqual([firstTry]);
    expect(fanOut.calls.map((call) => [call._id, call.sequence])).toEqual([[entry.id, firstTry!.sequence]]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it("a write's entries leave its outbox in one update once recorded; one that fails stays there with those after it, for the relay", async () => {
    const updatesOfConversations = () => watchMongoCommands((commandName, command) => commandName === 'update' && command['update'] === 'conversations');

    const id = await conversation();
    const entries = [await tagChange(id), await tagChange(id), await tagChange(id)];
    const watched = updatesOfConversations();
    await outbox.recordQuietly('conversations', scope, id, entries);
    watched.stop();
    expect(watched.commands).toHaveLength(1);
    expect(await outboxOf(id)).toEqual([]);
    expect((await storedEvents(id)).map((event) => event._id).sort()).toEqual(entries.map((entry) => entry.id).sort());

    const other = await conversation();
    const [first, second, third] = [await tagChange(other), await tagChange(other), await tagChange(other)];
    fanOut.failingFor.add(second.id);
    await outbox.recordQuietly('conversations', scope, other, [first, second, third]);
    expect(errors).toHaveLength(1);
    expect(fanOut.calls.filter((call) => call.conversation_id === other).map((call) => call._id)).toEqual([first.id]);
    expect((await outboxOf(other)).map((entry) => entry.id)).toEqual([second.id, third.id]);
  });

  it('sequences increase per conversation in recording order, each conversation its own', async () => {
    const [a, b] = [await conversation(), await conversation()];
    for (const conversationId of [a, b, a, a, b]) await outbox.recordQuietly('conversations', scope, conversationId, [await tagChange(conversationId)]);
    const sequencesOf = async (conversationId: string) => (await storedEvents(conversationId)).map((event) => event.sequence).sort((x, y) => x - y);
    expect(await sequencesOf(a)).toEqual([1, 2, 3]);
    expect(await sequencesOf(b)).toEqual([1, 2]);
  });

  it("a conversation change's event keeps the sequence its update took; an entry of another collection takes the next one", async () => {
    const id = await conversation();
    const first = await tagChange(id);
    const noteId = randomUUID();
    const note = outboxEntry('note.created', id, { uuid: noteId, kind: 'note', note: 'n' }, SYSTEM_AUTHOR, new Date());
    await timeline.insertIfAbsent(scope, { id: noteId, conversationId: id, kind: 'note', body: 'n', author: SYSTEM_AUTHOR, createdAt: note.created_at, outbox: [note] });
    const second = await tagChange(id);
    expect([first.sequence, second.sequence]).toEqual([1, 2]);
    // Recorded in another order than written: each change keeps its own number, the note takes the next.
    await outbox.recordQuietly('conversations', scope, id, [second]);
    await outbox.recordQuietly('timeline_events', scope, noteId, [note]);
    await outbox.recordQuietly('conversations', scope, id, [first]);
    const sequenceOf = new Map((await storedEvents(id)).map((event) => [event._id, event.sequence]));
    expect([sequenceOf.get(first.id), sequenceOf.get(second.id), sequenceOf.get(note.id)]).toEqual([1, 2, 3]);
    expect((await conversations.findById(scope, id))!.event_sequence).toBe(3);
  });

  describe("the contact's copy of its conversation's search state", () => {
    /** A conversation whose contact exists, as contact search needs it. */
    async function conversationWithContact(): Promise<{ id: string; contactId: string }> {
      const id = randomUUID();
      const contactId = randomUUID();
      const now = new Date();
      expect(await conversations.createIfAbsent(scope, { _id: id, contact_id: contactId, channel_id: 'c', sort_at: now, created_at: now, updated_at: now })).toBe(true);
      await contacts.insertManyNew(scope, [{ _id: contactId, channel_id: 'c', created_at: now, updated_at: now } as never]);
      return { id, contactId };
    }

    /** An inbox status change written as setInboxStatus writes it, answered as it records it. */
    async function statusChange(conversationId: string, from: string, to: string): Promise<SequencedEntry> {
      const now = new Date();
      const entry = outboxEntry('conversation.inbox_status_changed', conversationId, { from, to, reason: null }, SYSTEM_AUTHOR, now);
      const changed = await conversations.changeInboxStatus(scope, conversationId, { from, to, pendingReason: null, onlyIfResolvable: false, event: entry, now });
      expect(changed).not.toBeNull();
      return withConversationChange(entry, changed!);
    }

    const copyOf = async (contactId: string) => {
      const contact = await storedCollection('contacts').findOne({ _id: contactId as never });
      return { inbox_status: contact?.['inbox_status'], sequence: contact?.['conversation_state_sequence'] };
    };

    it('is made from the conversation its change answered, without reading it again', async () => {
      const { id, contactId } = await conversationWithContact();
      const opened = await statusChange(id, 'resolved', 'open');
      const reads = watchMongoCommands((commandName, command) => commandName === 'find' && command['find'] === 'conversations');
      await outbox.recordQuietly('conversations', scope, id, [opened]);
      reads.stop();
      expect(errors).toEqual([]);
      expect(reads.commands).toHaveLength(0);
      expect(await copyOf(contactId)).toEqual({ inbox_status: 'open', sequence: opened.sequence });
    });

    it('a copy of an earlier state never replaces a later one, whichever is recorded last; the relay copies the state it reads', async () => {
      const { id, contactId } = await conversationWithContact();
      const opened = await statusChange(id, 'resolved', 'open');
      const resolved = await statusChange(id, 'open', 'resolved');
      // Recorded out of order (two recorders racing): the later change first.
      await recorder.record(scope, id, resolved);
      await recorder.record(scope, id, opened);
      expect(await copyOf(contactId)).toEqual({ inbox_status: 'resolved', sequence: resolved.sequence });

      // The relay, after a crash, records an entry without the conversation: it reads it (at the
      // change's sequence or after it: the relay's event takes a new one beside the read).
      const pending = await statusChange(id, 'resolved', 'pending');
      const { conversation: _answered, sequence: _taken, ...stored } = pending;
      await recorder.record(scope, id, stored);
      expect(await copyOf(contactId)).toEqual({ inbox_status: 'pending', sequence: expect.any(Number) });
      expect((await copyOf(contactId)).sequence).toBeGreaterThanOrEqual(pending.sequence);
    });
  });

  describe('many documents recorded at once (a bulk write)', () => {
    /** Conversations inserted in one write, each with its conversation.created entry (the first taking its sequence in the insert) and a contact. */
    async function bulkWritten(count: number) {
      const now = new Date();
      const written = Array.from({ length: count }, (_unused, index) => {
        const id = randomUUID();
        const contactId = randomUUID();
        const created = outboxEntry('conversation.created', id, { contact_uuid: contactId }, SYSTEM_AUTHOR, now);
        return { id, contactId, created: index === 0 ? { ...created, sequence: 1 } : created, inbox_status: index % 2 === 0 ? 'open' : 'resolved' };
      });
      const inserted = await conversations.createManyIfAbsent(
        scope,
        written.map(({ id, contactId, created, inbox_status }, index) => ({ _id: id, contact_id: contactId, channel_id: 'c', sort_at: now, created_at: now, updated_at: now, inbox_status, ...(index === 0 ? { event_sequence: 1 } : {}), outbox: [created] })),
      );
      expect(inserted).toEqual(written.map(({ id }) => id));
      await contacts.insertManyNew(scope, written.map(({ contactId }) => ({ _id: contactId, channel_id: 'c', created_at: now, updated_at: now }) as never));
      return written;
    }

    it('records each entry once, with the sequence its write took or the next, one fan-out, the contacts\' copies; then the entries leave their outboxes', async () => {
      const [first, second, third] = await bulkWritten(3);
      // A later entry of the first conversation, recorded in the same batch after its creation.
      const tagged = outboxEntry('conversation.tags_changed', first!.id, { added: ['t'], removed: [] }, SYSTEM_AUTHOR, new Date());
      const updates = watchMongoCommands((commandName, command) => commandName === 'update' && command['update'] === 'conversations' && !('$inc' in ((command['updates'] as { u: object }[])[0]?.u ?? {})));
      await outbox.recordManyQuietly('conversations', scope, [
        { documentId: first!.id, entries: [first!.created, tagged] },
        { documentId: second!.id, entries: [second!.created] },
        { documentId: third!.id, entries: [third!.created] },
      ]);
      updates.stop();
      expect(errors).toEqual([]);

      const sequenceOf = async (conversationId: string) => new Map((await storedEvents(conversationId)).map((event) => [event._id, event.sequence]));
      expect(await sequenceOf(first!.id)).toEqual(new Map([[first!.created.id, 1], [tagged.id, 2]]));
      expect(await sequenceOf(second!.id)).toEqual(new Map([[second!.created.id, 1]]));
      expect(await rowsOf(first!.id)).toEqual([expect.objectContaining({ _id: tagged.id, event_type: 'tags_changed' })]);
      expect(fanOut.calls.map((call) => call._id).sort()).toEqual([first!.created.id, tagged.id, second!.created.id, third!.created.id].sort());
      for (const { id } of [first, second, third]) expect(await outboxOf(id!)).toEqual([]);
      // The outboxes were emptied in one update.
      expect(updates.commands).toHaveLength(1);
      for (const { contactId, inbox_status } of [first, second, third]) {
        expect(await storedCollection('contacts').findOne({ _id: contactId as never })).toMatchObject({ inbox_status, tag_ids: [], last_inbound_at: null });
      }
    });

    it('recording the same entries again stores nothing new: the fan-out carries the stored events', async () => {
      const written = await bulkWritten(2);
      const holders = written.map(({ id, created }) => ({ documentId: id, entries: [created] }));
      await outbox.recordManyQuietly('conversations', scope, holders);
      const storedFirst = await storedEvents(written[1]!.id);
      await outbox.recordManyQuietly('conversations', scope, holders);
      expect(await storedEvents(written[1]!.id)).toEqual(storedFirst);
      expect(fanOut.calls.filter((call) => call._id === written[1]!.created.id).map((call) => call.sequence)).toEqual([storedFirst[0]!.sequence, storedFirst[0]!.sequence]);
      expect(errors).toEqual([]);
    });

    it('a fan-out that fails leaves every entry in its outbox, for the relay', async () => {
      const written = await bulkWritten(2);
      fanOut.failingFor.add(written[1]!.created.id);
      await outbox.recordManyQuietly('conversations', scope, written.map(({ id, created }) => ({ documentId: id, entries: [created] })));
      expect(errors).toHaveLength(1);
      for (const { id, created } of written) expect((await outboxOf(id)).map((entry) => entry.id)).toEqual([created.id]);
    });
  });

  it('a timeline-only entry adds its row and no event', async () => {
    const id = await conversation();
    const scheduleId = randomUUID();
    const entry = outboxEntry('scheduled_message.created', id, { scheduled_message_uuid: scheduleId }, SYSTEM_AUTHOR, new Date());
    await outbox.recordQuietly('conversations', scope, id, [entry]);
    expect(await storedEvents(id)).toEqual([]);
    expect(await rowsOf(id)).toEqual([expect.objectContaining({ _id: entry.id, event_type: 'schedule_created', data: { scheduled_message_uuid: scheduleId } })]);
    expect(fanOut.calls).toEqual([]);
  });

  it('finds what is left in every collection with an outbox', async () => {
    const id = await conversation();
    const noteId = randomUUID();
    const entry = outboxEntry('note.created', id, { uuid: noteId, kind: 'note', note: 'n' }, SYSTEM_AUTHOR, new Date(Date.now() - 10_000));
    await timeline.insertIfAbsent(scope, { id: noteId, conversationId: id, kind: 'note', body: 'n', author: SYSTEM_AUTHOR, createdAt: entry.created_at, outbox: [entry] });
    const stale: OutboxHolder[] = await outboxes.findStaleAcrossBusinesses('timeline_events', new Date(), 100);
    expect(stale.map((holder) => holder._id)).toContain(noteId);
    await outbox.flushStale(5_000);
    expect(await events.findById(scope, entry.id)).toMatchObject({ type: 'note.created', sequence: 1 });
    expect((await timeline.findById(scope, noteId))!.outbox).toEqual([]);
  });
});
