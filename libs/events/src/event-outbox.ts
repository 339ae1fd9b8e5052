import { type BusinessScope, OUTBOX_COLLECTIONS, type OutboxCollection, type OutboxEntry, OutboxRepository, businessScope } from '@cmsg/dal';
import type { EventRecorder } from './event-recorder';

/** What a writer needs of the outbox: recording the entries its write just pushed. */
export type OutboxRecorder = Pick<EventOutbox, 'recordQuietly'>;

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
  private readonly outboxes = new OutboxRepository();

  constructor(
    private readonly recorder: EventRecorder,
    private readonly onRecordError: (error: unknown, entry: OutboxEntry) => void,
  ) {}

  /**
   * Records the entries a write just pushed, in order, then takes the recorded ones out of the
   * document's outbox in one update. Never fails the caller: the change is stored, and the relay
   * records what this could not (an entry that failed and those after it, or all of them when the
   * last update failed: recording is idempotent).
   */
  async recordQuietly(collection: OutboxCollection, scope: BusinessScope, documentId: string, entries: readonly OutboxEntry[]): Promise<void> {
    const recorded: OutboxEntry[] = [];
    for (const entry of entries) {
      try {
        await this.recorder.recordKeepingEntry(scope, documentId, entry);
        recorded.push(entry);
      } catch (error) {
        this.onRecordError(error, entry);
        break;
      }
    }
    if (recorded.length === 0) return;
    try {
      await this.outboxes.pull(collection, scope, documentId, recorded.map((entry) => entry.id));
    } catch (error) {
      this.onRecordError(error, recorded[recorded.length - 1]!);
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
      for (const entry of stale) {
        try {
          await this.recorder.record(collection, businessScope(holder.business_id), holder._id, entry);
          recorded += 1;
        } catch (error) {
          // The document's later entries wait for the next pass: they keep their order.
          this.onRecordError(error, entry);
          break;
        }
      }
    }
    return recorded;
  }
}
