import type { BroadcastRecipientRepository, BroadcastRepository, BusinessScope, OutboxCollection, OutboxEntry } from '@cmsg/dal';

/** The broadcasts data the use cases read and write (libs/dal repositories in the apps). */
export interface BroadcastStore {
  broadcasts: Pick<BroadcastRepository, 'insertIfAbsent' | 'findById' | 'listPage' | 'transition' | 'saveCheckpoint' | 'saveCounts' | 'setDue' | 'findOnChannel' | 'claim' | 'findDueAcrossBusinesses'>;
  recipients: Pick<
    BroadcastRecipientRepository,
    | 'insertBatch'
    | 'discardFrom'
    | 'insertSkipped'
    | 'findPendingInRange'
    | 'pendingSeqs'
    | 'claim'
    | 'finish'
    | 'release'
    | 'findStaleClaims'
    | 'hasOpenRecipients'
    | 'cancelPending'
    | 'retryFailed'
    | 'countOutcomes'
    | 'listPage'
  >;
}

/** Records the entries a write just pushed into a broadcast's outbox (EventOutbox in the apps). */
export interface BroadcastEvents {
  recordQuietly(collection: OutboxCollection, scope: BusinessScope, documentId: string, entries: readonly OutboxEntry[]): Promise<void>;
}

export interface BroadcastClock {
  now(): Date;
}

/** A range of recipients to send, as the coordinator hands it to the senders through Kafka. */
export interface SendSlice {
  business_id: string;
  broadcast_id: string;
  from_seq: number;
  to_seq: number;
  epoch: number;
}

/** Kafka `broadcast-sends` in the apps: spread over every partition. */
export interface SlicePublisher {
  publish(slices: readonly SendSlice[]): Promise<void>;
}
