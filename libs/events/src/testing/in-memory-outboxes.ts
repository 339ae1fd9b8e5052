import type { BusinessScope, OutboxCollection, OutboxEntry, OutboxHolder } from '@cmsg/dal';
import type { OutboxStore } from '../event-outbox';

/** The `outbox` arrays of every collection in memory: the documents holding entries, in insertion order. */
export class InMemoryOutboxes implements OutboxStore {
  private readonly holders = new Map<OutboxCollection, OutboxHolder[]>();

  /** A document of the collection whose write pushed these entries. */
  hold(collection: OutboxCollection, scope: BusinessScope, documentId: string, entries: readonly OutboxEntry[]): void {
    this.holdersOf(collection).push({ _id: documentId, business_id: scope.businessId, outbox: [...entries] });
  }

  /** The ids of the entries still in the document's outbox. */
  entryIdsOf(collection: OutboxCollection, documentId: string): string[] {
    return this.holdersOf(collection).find((holder) => holder._id === documentId)?.outbox.map((entry) => entry.id) ?? [];
  }

  async pull(collection: OutboxCollection, scope: BusinessScope, documentId: string, entryIds: readonly string[]): Promise<void> {
    await this.pullMany(collection, scope, [documentId], entryIds);
  }

  async pullMany(collection: OutboxCollection, scope: BusinessScope, documentIds: readonly string[], entryIds: readonly string[]): Promise<void> {
    for (const holder of this.holdersOf(collection)) {
      if (holder.business_id === scope.businessId && documentIds.includes(holder._id)) holder.outbox = holder.outbox.filter((entry) => !entryIds.includes(entry.id));
    }
  }

  async findStaleAcrossBusinesses(collection: OutboxCollection, before: Date, limit: number): Promise<OutboxHolder[]> {
    return this.holdersOf(collection)
      .filter((holder) => holder.outbox.some((entry) => entry.created_at < before))
      .slice(0, limit)
      .map((holder) => ({ ...holder, outbox: [...holder.outbox] }));
  }

  private holdersOf(collection: OutboxCollection): OutboxHolder[] {
    const holders = this.holders.get(collection) ?? [];
    this.holders.set(collection, holders);
    return holders;
  }
}
