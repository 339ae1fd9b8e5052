import { type OutboxEntry, businessScope } from '@cmsg/dal';
import { EventOutbox } from './event-outbox';
import { SYSTEM_AUTHOR, outboxEntry } from './outbox-entries';
import { InMemoryOutboxes } from './testing/in-memory-outboxes';
import { inMemoryRecorder } from './testing/in-memory-recorder';

const scope = businessScope('business-1');
const now = new Date('2026-11-02T10:00:00.000Z');

function tagsChanged(secondsAgo = 0): OutboxEntry {
  return outboxEntry('conversation.tags_changed', 'conversation-1', { added: ['tag-1'], removed: [] }, SYSTEM_AUTHOR, new Date(now.getTime() - secondsAgo * 1000));
}

describe('EventOutbox', () => {
  let world: ReturnType<typeof inMemoryRecorder>;
  let outboxes: InMemoryOutboxes;
  let failures: string[];
  let outbox: EventOutbox;

  beforeEach(() => {
    world = inMemoryRecorder();
    world.stores.addConversation({ _id: 'conversation-1', business_id: scope.businessId, contact_id: 'contact-1', channel_id: 'channel-1' });
    outboxes = new InMemoryOutboxes();
    failures = [];
    outbox = new EventOutbox(world.recorder, outboxes, (_error, entry) => failures.push(entry.id));
  });

  const recordedIds = () => world.fanOut.calls.map((event) => event._id);

  it("records a write's entries in order, then takes them out of the document's outbox", async () => {
    const entries = [tagsChanged(), tagsChanged()];
    outboxes.hold('conversations', scope, 'conversation-1', entries);

    await outbox.recordQuietly('conversations', scope, 'conversation-1', entries);

    expect(recordedIds()).toEqual(entries.map((entry) => entry.id));
    expect(world.stores.eventRows.map((event) => event.sequence)).toEqual([1, 2]);
    expect(outboxes.entryIdsOf('conversations', 'conversation-1')).toEqual([]);
  });

  it('stops at an entry that fails: it and the ones after it stay in the outbox, in order, for the relay', async () => {
    const [first, failing, last] = [tagsChanged(), tagsChanged(), tagsChanged()] as [OutboxEntry, OutboxEntry, OutboxEntry];
    outboxes.hold('conversations', scope, 'conversation-1', [first, failing, last]);
    world.fanOut.failingFor.add(failing.id);

    await outbox.recordQuietly('conversations', scope, 'conversation-1', [first, failing, last]);

    expect(failures).toEqual([failing.id]);
    expect(recordedIds()).toEqual([first.id]);
    expect(world.stores.eventRows.map((event) => event._id)).not.toContain(last.id);
    expect(outboxes.entryIdsOf('conversations', 'conversation-1')).toEqual([failing.id, last.id]);

    world.fanOut.failingFor.clear();
    expect(await outbox.flushStale(0, 100, new Date(now.getTime() + 1))).toBe(2);

    expect(recordedIds()).toEqual([first.id, failing.id, last.id]);
    expect(outboxes.entryIdsOf('conversations', 'conversation-1')).toEqual([]);
  });

  it('relays only the entries older than its delay, oldest first within a document', async () => {
    const [later, earlier, fresh] = [tagsChanged(10), tagsChanged(20), tagsChanged(1)] as [OutboxEntry, OutboxEntry, OutboxEntry];
    outboxes.hold('conversations', scope, 'conversation-1', [later, earlier, fresh]);

    expect(await outbox.flushStale(5_000, 100, now)).toBe(2);

    expect(world.stores.eventRows.map((event) => [event._id, event.sequence])).toEqual([
      [earlier.id, 1],
      [later.id, 2],
    ]);
    expect(outboxes.entryIdsOf('conversations', 'conversation-1')).toEqual([fresh.id]);
  });

  it('takes the entries of a bulk write out of their outboxes only once all of them are recorded', async () => {
    const created = (contactId: string) => outboxEntry('contact.created', null, { uuid: contactId }, SYSTEM_AUTHOR, now);
    const holders = [
      { documentId: 'contact-1', entries: [created('contact-1')] },
      { documentId: 'contact-2', entries: [created('contact-2')] },
    ];
    for (const holder of holders) outboxes.hold('contacts', scope, holder.documentId, holder.entries);
    const entryIds = holders.map((holder) => holder.entries[0]!.id);

    world.fanOut.failing = true;
    await outbox.recordManyQuietly('contacts', scope, holders);
    expect(failures).toEqual([entryIds[0]]);
    expect(holders.map((holder) => outboxes.entryIdsOf('contacts', holder.documentId))).toEqual([[entryIds[0]], [entryIds[1]]]);

    world.fanOut.failing = false;
    await outbox.recordManyQuietly('contacts', scope, holders);
    expect(recordedIds()).toEqual(entryIds);
    expect(holders.map((holder) => outboxes.entryIdsOf('contacts', holder.documentId))).toEqual([[], []]);
  });
});
