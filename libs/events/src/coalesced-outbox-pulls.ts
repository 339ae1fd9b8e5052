import type { BusinessScope, OutboxCollection, OutboxRepository } from '@cmsg/dal';
import { TurnBatches } from '@cmsg/platform';

interface Pull {
  collection: OutboxCollection;
  scope: BusinessScope;
  documentId: string;
  entryIds: readonly string[];
}

/**
 * Takes recorded entries out of their outboxes, the pulls of one turn of the event loop merged into
 * one update per collection and business (TurnBatches): entry ids are unique, so pulling every
 * entry id of the batch from every document of it takes out exactly what each pull asked for.
 */
export class CoalescedOutboxPulls {
  private readonly batches: TurnBatches<Pull, void>;

  constructor(outboxes: Pick<OutboxRepository, 'pull' | 'pullMany'>) {
    this.batches = new TurnBatches<Pull, void>(async (pulls) => {
      const { collection, scope } = pulls[0]!;
      if (pulls.length === 1) await outboxes.pull(collection, scope, pulls[0]!.documentId, pulls[0]!.entryIds);
      else await outboxes.pullMany(collection, scope, pulls.map((pull) => pull.documentId), pulls.flatMap((pull) => pull.entryIds));
      return pulls.map(() => undefined);
    });
  }

  pull(collection: OutboxCollection, scope: BusinessScope, documentId: string, entryIds: readonly string[]): Promise<void> {
    return this.batches.add(`${collection}\u0000${scope.businessId}`, { collection, scope, documentId, entryIds });
  }
}
