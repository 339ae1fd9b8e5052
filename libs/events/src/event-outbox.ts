import { type BusinessScope, OUTBOX_COLLECTIONS, type OutboxCollection, type OutboxEntry, type OutboxRepository, businessScope } from '@cmsg/dal';
import { CoalescedOutboxPulls } from './coalesced-outbox-pulls';
import type { EventRecorder } from './event-recorder';

/** What a writer needs of the outbox: recording the entries its write just pushed. */
export type OutboxRecorder = Pick<EventOutbox, 'recordQuietly'>;

/** What a bulk writer needs of it: recording the entries its bulk write pushed into many documents. */
export type BulkOutboxRecorder = Pick<EventOutbox, 'recordManyQuietly'>;

/** The outboxes of every collection (OutboxRepository in the apps). */
export type OutboxStore = Pick<OutboxRepository, 'pull' | 'pullMany' | 'findStaleAcrossBusinesses'>;

/** A document written in bulk and the entries its write pushed. */
export interface OutboxHolderEntries {
  documentId: string;
  entries: readonly OutboxEntry[];
}

/**
 * Records the entries of every collection's outbox (docs/events.md), generalising the conversation
 * outbox that published conversation events: a write pushes its entry into the changed document's
 * `outbox` in the same update; the writer records it right after (recordQuietly, the fast path);
 * a crash in between leaves it there, where the relay (flushStale) records it once it is older than
 * the relay's delay.
 *
 * A writer slower than that delay and the relay, or two replicas' relays, may record the same entry:
 * recording is idempotent by entry id, so nothing claims an entry first. Each process runs one relay
 * pass at a time (apps/conversations).
 */
export class EventOutbox {
  private readonly pulls: CoalescedOutboxPulls;

  constructor(
    private readonly recorder: EventRecorder,
    private readonly outboxes: OutboxStore,
    private readonly onRecordError: (error: unknown, entry: OutboxEntry) => void,
  ) {
    this.pulls = new CoalescedOutboxPulls(outboxes);
  }

  /**
   * Records the entries a write just pushed (recordInOrder). Never fails the caller: the change is
   * stored, and the relay records what this could not.
   */
  async recordQuietly(collection: OutboxCollection, scope: BusinessScope, documentId: string, entries: readonly OutboxEntry[]): Promise<void> {
    await this.recordInOrder(collection, scope, documentId, entries);
  }

  /**
   * Records the entries a bulk write just pushed into many documents of one collection, all at once
   * (EventRecorder.recordMany), then takes them out of their outboxes in one update. Never fails the
   * caller: if anything fails, every entry stays for the relay (recording is idempotent).
   */
  async recordManyQuietly(collection: OutboxCollection, scope: BusinessScope, holders: readonly OutboxHolderEntries[]): Promise<void> {
    const entries = holders.flatMap((holder) => holder.entries);
    if (entries.length === 0) return;
    try {
      await this.recorder.recordMany(scope, entries);
      await this.outboxes.pullMany(
        collection,
        scope,
        holders.map((holder) => holder.documentId),
        entries.map((entry) => entry.id),
      );
    } catch (error) {
      this.onRecordError(error, entries[0]!);
    }
  }

  /**
   * The relay: records every entry still waiting `minAgeMs` after it was written, in every
   * collection with an outbox, oldest first within a document. Answers how many it recorded.
   */
  async flushStale(minAgeMs: number, batch = 100, now: Date = new Date()): Promise<number> {
    const before = new Date(now.getTime() - minAgeMs);
    let recorded = 0;
    for (const collection of OUTBOX_COLLECTIONS) recorded += await this.flushCollection(collection, before, batch);
    return recorded;
  }

  private async flushCollection(collection: OutboxCollection, before: Date, batch: number): Promise<number> {
    const holders = await this.outboxes.findStaleAcrossBusinesses(collection, before, batch);
    let recorded = 0;
    for (const holder of holders) {
      const stale = holder.outbox.filter((entry) => entry.created_at < before).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
      recorded += await this.recordInOrder(collection, businessScope(holder.business_id), holder._id, stale);
    }
    return recorded;
  }

  /**
   * Records a document's entries in order, then takes the recorded ones out of its outbox in one
   * update. An entry that fails is reported and stops the rest: they wait for the relay's next pass
   * and keep their order (recording is idempotent, so a failed last update only means recording
   * them again). The update is merged with the other pulls of the same turn (CoalescedOutboxPulls).
   * Answers how many left the outbox.
   */
  private async recordInOrder(collection: OutboxCollection, scope: BusinessScope, documentId: string, entries: readonly OutboxEntry[]): Promise<number> {
    const recorded: OutboxEntry[] = [];
    for (const entry of entries) {
      try {
        await this.recorder.record(scope, documentId, entry);
        recorded.push(entry);
      } catch (error) {
        this.onRecordError(error, entry);
        break;
      }
    }
    if (recorded.length === 0) return 0;
    try {
      await this.pulls.pull(collection, scope, documentId, recorded.map((entry) => entry.id));
      return recorded.length;
    } catch (error) {
      this.onRecordError(error, recorded[recorded.length - 1]!);
      return 0;
    }
  }
}
