import { businessScope } from '@cmsg/dal';
import { SYSTEM_AUTHOR, outboxEntry, withSequence } from './outbox-entries';
import { IN_MEMORY_BUSINESS_SLUG, inMemoryRecorder } from './testing/in-memory-recorder';

const scope = businessScope('business-1');
const at = new Date('2026-11-02T10:00:00.000Z');

function tagsChanged(conversationId: string) {
  return outboxEntry('conversation.tags_changed', conversationId, { added: ['tag-1'], removed: [] }, SYSTEM_AUTHOR, at);
}

describe('EventRecorder', () => {
  let world: ReturnType<typeof inMemoryRecorder>;

  beforeEach(() => {
    world = inMemoryRecorder();
  });

  function conversation(id: string, eventSequence = 0) {
    return world.stores.addConversation({ _id: id, business_id: scope.businessId, contact_id: `contact-of-${id}`, channel_id: 'channel-1', event_sequence: eventSequence, tag_ids: ['tag-1'] });
  }

  it('records an entry once however often it is recorded: one event and one timeline row, the stored event fanned out each time', async () => {
    const stored = conversation('conversation-1');
    const entry = tagsChanged('conversation-1');

    await world.recorder.record(scope, 'conversation-1', entry);
    await world.recorder.record(scope, 'conversation-1', entry);

    expect(world.stores.eventRows).toEqual([
      expect.objectContaining({ _id: entry.id, business_id: scope.businessId, business_slug: IN_MEMORY_BUSINESS_SLUG, type: 'conversation.tags_changed', sequence: 1 }),
    ]);
    expect(world.stores.timelineRows).toEqual([expect.objectContaining({ id: entry.id, conversationId: 'conversation-1', kind: 'event', eventType: 'tags_changed' })]);
    expect(world.fanOut.calls.map((event) => [event._id, event.sequence])).toEqual([
      [entry.id, 1],
      [entry.id, 1],
    ]);
    // The repeat took a sequence number that no event keeps (a gap).
    expect(stored.event_sequence).toBe(2);
  });

  it('inserts the events of entries recorded in one turn in one insert, and fans out each as stored', async () => {
    conversation('conversation-1');
    conversation('conversation-2');
    const inserts: number[] = [];
    const { insertIfAbsent, insertManyIfAbsent } = world.stores.events;
    world.stores.events.insertIfAbsent = async (event) => (inserts.push(1), insertIfAbsent(event));
    world.stores.events.insertManyIfAbsent = async (events) => (inserts.push(events.length), insertManyIfAbsent(events));
    const [first, second] = [tagsChanged('conversation-1'), tagsChanged('conversation-2')];

    await Promise.all([world.recorder.record(scope, 'conversation-1', first), world.recorder.record(scope, 'conversation-2', second)]);

    expect(inserts).toEqual([2]);
    expect(world.stores.eventRows.map((event) => [event._id, event.sequence])).toEqual([
      [first.id, 1],
      [second.id, 1],
    ]);
    expect(world.fanOut.calls.map((event) => event._id).sort()).toEqual([first.id, second.id].sort());
  });

  it('fans out the stored event to both recorders of one entry recorded twice in one turn (a writer and the relay)', async () => {
    const stored = conversation('conversation-1');
    const entry = tagsChanged('conversation-1');

    await Promise.all([world.recorder.record(scope, 'conversation-1', entry), world.recorder.record(scope, 'conversation-1', entry)]);

    expect(world.stores.eventRows).toHaveLength(1);
    const kept = world.stores.eventRows[0]!.sequence;
    expect(world.fanOut.calls.map((event) => [event._id, event.sequence])).toEqual([
      [entry.id, kept],
      [entry.id, kept],
    ]);
    expect(stored.event_sequence).toBe(2);
  });

  it("takes the sequence the entry's change took, or else the conversation's next one", async () => {
    const stored = conversation('conversation-1', 4);
    const sequenced = withSequence(tagsChanged('conversation-1'), { event_sequence: 7 });
    const unsequenced = tagsChanged('conversation-1');

    await world.recorder.record(scope, 'conversation-1', sequenced);
    expect(stored.event_sequence).toBe(4);
    await world.recorder.record(scope, 'conversation-1', unsequenced);

    expect(world.stores.eventRows.map((event) => [event._id, event.sequence])).toEqual([
      [sequenced.id, 7],
      [unsequenced.id, 5],
    ]);
  });

  it("records many at once with each conversation's next sequences in entry order, idempotently", async () => {
    conversation('conversation-1');
    conversation('conversation-2');
    const entries = [tagsChanged('conversation-1'), tagsChanged('conversation-2'), tagsChanged('conversation-1')];

    await world.recorder.recordMany(scope, entries);
    await world.recorder.recordMany(scope, entries);

    expect(world.stores.eventRows.map((event) => [event._id, event.sequence])).toEqual([
      [entries[0]!.id, 1],
      [entries[1]!.id, 1],
      [entries[2]!.id, 2],
    ]);
    expect(world.stores.timelineRows.map((row) => row.id)).toEqual(entries.map((entry) => entry.id));
    // The repeat fans out the stored events, with the sequences they kept.
    expect(world.fanOut.calls.map((event) => [event._id, event.sequence])).toEqual([
      [entries[0]!.id, 1],
      [entries[1]!.id, 1],
      [entries[2]!.id, 2],
      [entries[0]!.id, 1],
      [entries[1]!.id, 1],
      [entries[2]!.id, 2],
    ]);
  });

  it("copies what contact search reads to the conversation's contact on a change it reads", async () => {
    conversation('conversation-1');

    await world.recorder.record(scope, 'conversation-1', tagsChanged('conversation-1'));

    expect(world.stores.contactStates.get('contact-of-conversation-1')).toEqual({ tag_ids: ['tag-1'], inbox_status: 'resolved', last_inbound_at: null, sequence: 1 });
  });

  it('rejects an entry of an unknown type and records nothing of it', async () => {
    conversation('conversation-1');
    const entry = { ...tagsChanged('conversation-1'), type: 'conversation.renamed' };

    await expect(world.recorder.record(scope, 'conversation-1', entry)).rejects.toThrow(/unknown type "conversation.renamed"/);

    expect(world.stores.eventRows).toEqual([]);
    expect(world.stores.timelineRows).toEqual([]);
    expect(world.fanOut.calls).toEqual([]);
  });
});
