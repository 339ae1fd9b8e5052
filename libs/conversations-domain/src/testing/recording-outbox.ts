import type { BusinessScope, OutboxEntry } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';

export interface RecordedEntries {
  collection: string;
  businessId: string;
  documentId: string;
  entries: OutboxEntry[];
}

/** The outbox recorder as a list of what the writers asked it to record, in order. */
export class RecordingOutbox implements OutboxRecorder {
  readonly recorded: RecordedEntries[] = [];

  async recordQuietly(collection: string, scope: BusinessScope, documentId: string, entries: readonly OutboxEntry[]): Promise<void> {
    this.recorded.push({ collection, businessId: scope.businessId, documentId, entries: [...entries] });
  }
}
