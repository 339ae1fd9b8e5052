import { type BusinessScope, type OutboxCollection, type OutboxEntry, businessScope } from '@cmsg/dal';
import { CoalescedOutboxPulls } from './coalesced-outbox-pulls';
import { SYSTEM_AUTHOR, outboxEntry } from './outbox-entries';
import { InMemoryOutboxes } from './testing/in-memory-outboxes';

const [business1, business2] = [businessScope('business-1'), businessScope('business-2')];

/** InMemoryOutboxes that also lists the updates it was asked for. */
class CountingOutboxes extends InMemoryOutboxes {
  readonly updates: string[] = [];
  failNext: Error | undefined;

  override async pull(collection: OutboxCollection, scope: BusinessScope, documentId: string, entryIds: readonly string[]): Promise<void> {
    this.updates.push(`pull ${collection} ${scope.businessId} ${documentId}`);
    this.throwIfFailing();
    await super.pullMany(collection, scope, [documentId], entryIds);
  }

  override async pullMany(collection: OutboxCollection, scope: BusinessScope, documentIds: readonly string[], entryIds: readonly string[]): Promise<void> {
    this.updates.push(`pullMany ${collection} ${scope.businessId} ${documentIds.join(',')}`);
    this.throwIfFailing();
    await super.pullMany(collection, scope, documentIds, entryIds);
  }

  private throwIfFailing(): void {
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
  }
}

const entry = (): OutboxEntry => outboxEntry('message.sent', 'conversation-1', {}, SYSTEM_AUTHOR, new Date('2026-11-30T10:00:00.000Z'));

function held(outboxes: InMemoryOutboxes, collection: OutboxCollection, scope: BusinessScope, documentId: string): OutboxEntry[] {
  const entries = [entry(), entry()];
  outboxes.hold(collection, scope, documentId, entries);
  return entries;
}

describe('CoalescedOutboxPulls', () => {
  it('merges the pulls of one turn into one update per collection and business, each taking out only its own entries', async () => {
    const outboxes = new CountingOutboxes();
    const pulls = new CoalescedOutboxPulls(outboxes);
    const [a, b] = [held(outboxes, 'messages', business1, 'message-a'), held(outboxes, 'messages', business1, 'message-b')];
    const other = held(outboxes, 'messages', business2, 'message-c');
    const conversation = held(outboxes, 'conversations', business1, 'conversation-1');

    await Promise.all([
      pulls.pull('messages', business1, 'message-a', [a[0]!.id]),
      pulls.pull('messages', business1, 'message-b', b.map((held) => held.id)),
      pulls.pull('messages', business2, 'message-c', other.map((held) => held.id)),
      pulls.pull('conversations', business1, 'conversation-1', [conversation[1]!.id]),
    ]);

    expect(outboxes.updates.sort()).toEqual(['pull conversations business-1 conversation-1', 'pull messages business-2 message-c', 'pullMany messages business-1 message-a,message-b']);
    expect(outboxes.entryIdsOf('messages', 'message-a')).toEqual([a[1]!.id]);
    expect(outboxes.entryIdsOf('messages', 'message-b')).toEqual([]);
    expect(outboxes.entryIdsOf('messages', 'message-c')).toEqual([]);
    expect(outboxes.entryIdsOf('conversations', 'conversation-1')).toEqual([conversation[0]!.id]);
  });

  it('settles each pull only once its update is done, and makes pulls of a later turn in an update of their own', async () => {
    const outboxes = new CountingOutboxes();
    const pulls = new CoalescedOutboxPulls(outboxes);
    const first = held(outboxes, 'messages', business1, 'message-a');
    const second = held(outboxes, 'messages', business1, 'message-b');

    const pulled = pulls.pull('messages', business1, 'message-a', first.map((held) => held.id));
    expect(outboxes.updates).toEqual([]);
    await pulled;
    expect(outboxes.entryIdsOf('messages', 'message-a')).toEqual([]);
    await pulls.pull('messages', business1, 'message-b', second.map((held) => held.id));

    expect(outboxes.updates).toEqual(['pull messages business-1 message-a', 'pull messages business-1 message-b']);
  });

  it("rejects every pull of a group whose update failed, and leaves their entries for the relay", async () => {
    const outboxes = new CountingOutboxes();
    const pulls = new CoalescedOutboxPulls(outboxes);
    const [a, b] = [held(outboxes, 'messages', business1, 'message-a'), held(outboxes, 'messages', business1, 'message-b')];
    outboxes.failNext = new Error('MongoDB went away');

    const outcomes = await Promise.allSettled([pulls.pull('messages', business1, 'message-a', a.map((held) => held.id)), pulls.pull('messages', business1, 'message-b', b.map((held) => held.id))]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(outboxes.entryIdsOf('messages', 'message-a')).toHaveLength(2);
    expect(outboxes.entryIdsOf('messages', 'message-b')).toHaveLength(2);
  });
});
