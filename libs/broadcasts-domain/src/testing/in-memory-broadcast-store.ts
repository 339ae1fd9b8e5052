import type { BroadcastEntity, BroadcastRecipientEntity, BusinessScope, RecipientOutcomes } from '@cmsg/dal';
import { isDeepStrictEqual } from 'node:util';
import type { BroadcastStore } from '../core/broadcast-ports';

/** The broadcasts and broadcast_recipients collections, in memory: specs read and seed them directly. */
export interface BroadcastData {
  broadcasts: BroadcastEntity[];
  recipients: BroadcastRecipientEntity[];
}

/** A write that throws `<step> failed` before it changes anything (a crash or a lost connection). */
export interface StoreFaults {
  failing?: string;
}

const copy = <T>(value: T): T => structuredClone(value);
const sameTime = (a: Date | null | undefined, b: Date | null | undefined): boolean => (a ?? null)?.getTime() === (b ?? null)?.getTime();
const of = (scope: BusinessScope, document: { business_id: string }): boolean => document.business_id === scope.businessId;

/** `$set` as MongoDB applies it: whether the document changed (modifiedCount). */
function setFields<T extends object>(document: T, fields: Partial<T>): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(fields) as [keyof T, T[keyof T]][]) {
    if (value === undefined) continue;
    if (!isDeepStrictEqual(document[key], value)) changed = true;
    document[key] = copy(value);
  }
  return changed;
}

class DuplicateKeyError extends Error {
  readonly code = 11000;
  constructor(index: string) {
    super(`E11000 duplicate key error collection: broadcast_recipients index: ${index}`);
  }
}

/**
 * BroadcastStore over BroadcastData with the semantics of libs/dal's BroadcastRepository and
 * BroadcastRecipientRepository: every filter carries the business, state changes are conditional
 * (claim only if pending, finish and release only if sending, a lease only as read), the unique
 * {broadcast_id, seq} and {broadcast_id, dedupe_key} indexes, and copies in and out as documents.
 */
export function inMemoryBroadcastStore(data: BroadcastData = { broadcasts: [], recipients: [] }, faults: StoreFaults = {}): BroadcastStore {
  const fail = (step: string): void => {
    if (faults.failing === step) throw new Error(`${step} failed`);
  };
  const broadcastOf = (scope: BusinessScope, id: string) => data.broadcasts.find((broadcast) => of(scope, broadcast) && broadcast._id === id) ?? null;
  const recipientOf = (scope: BusinessScope, id: string, status: BroadcastRecipientEntity['status']) =>
    data.recipients.find((recipient) => of(scope, recipient) && recipient._id === id && recipient.status === status) ?? null;
  const recipientsOf = (scope: BusinessScope, broadcastId: string) => data.recipients.filter((recipient) => of(scope, recipient) && recipient.broadcast_id === broadcastId);
  const bySeq = (a: BroadcastRecipientEntity, b: BroadcastRecipientEntity) => a.seq - b.seq;
  /** The unique index a recipient would break, in the order the indexes were created. */
  const violatedIndex = (recipient: BroadcastRecipientEntity): string | null => {
    const same = data.recipients.filter((existing) => existing.business_id === recipient.business_id);
    if (same.some((existing) => existing._id === recipient._id)) return 'business_id_1__id_1';
    const ofBroadcast = same.filter((existing) => existing.broadcast_id === recipient.broadcast_id);
    if (ofBroadcast.some((existing) => existing.seq === recipient.seq)) return 'business_id_1_broadcast_id_1_seq_1';
    if (ofBroadcast.some((existing) => existing.dedupe_key === recipient.dedupe_key)) return 'business_id_1_broadcast_id_1_dedupe_key_1';
    return null;
  };

  return {
    broadcasts: {
      insertIfAbsent: async (broadcast) => {
        fail('insertIfAbsent');
        if (data.broadcasts.some((existing) => existing._id === broadcast._id)) return false;
        data.broadcasts.push(copy(broadcast));
        return true;
      },
      findById: async (scope, id) => copy(broadcastOf(scope, id)),
      listPage: async (scope, { status, after, limit }) =>
        data.broadcasts
          .filter((broadcast) => of(scope, broadcast) && (!status || broadcast.status === status))
          .filter(
            (broadcast) =>
              !after ||
              broadcast.created_at.getTime() < after.created_at.getTime() ||
              (broadcast.created_at.getTime() === after.created_at.getTime() && broadcast._id < after._id),
          )
          .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
          .slice(0, limit)
          .map(copy),
      findDueAcrossBusinesses: async (now, limit) =>
        data.broadcasts
          .filter((broadcast) => broadcast.due_at !== null && broadcast.due_at.getTime() <= now.getTime())
          .sort((a, b) => (a.due_at?.getTime() ?? 0) - (b.due_at?.getTime() ?? 0))
          .slice(0, limit)
          .map(copy),
      claim: async (scope, read, leaseUntil) => {
        const broadcast = broadcastOf(scope, read._id);
        if (!broadcast || broadcast.status !== read.status || !sameTime(broadcast.due_at, read.due_at)) return null;
        broadcast.due_at = new Date(leaseUntil);
        return { broadcast: copy(broadcast), leaseUntil };
      },
      saveCheckpoint: async (scope, claimed, freeze, leaseUntil) => {
        fail('saveCheckpoint');
        const broadcast = broadcastOf(scope, claimed.broadcast._id);
        if (!broadcast || broadcast.status !== 'preparing' || !sameTime(broadcast.due_at, claimed.leaseUntil)) return false;
        const modified = setFields(broadcast, { freeze, due_at: leaseUntil });
        if (modified) claimed.leaseUntil = leaseUntil;
        return modified;
      },
      transition: async (scope, id, from, change) => {
        fail('transition');
        const broadcast = broadcastOf(scope, id);
        if (!broadcast || !from.includes(broadcast.status)) return null;
        setFields(broadcast, change.set as Partial<BroadcastEntity>);
        if (change.event) broadcast.outbox = [...(broadcast.outbox ?? []), copy(change.event)];
        if (change.redispatch) broadcast.dispatch_epoch += 1;
        return copy(broadcast);
      },
      saveCounts: async (scope, id, counts) => {
        const broadcast = broadcastOf(scope, id);
        if (broadcast) setFields(broadcast, counts);
      },
      setDue: async (scope, id, dueAt) => {
        const broadcast = broadcastOf(scope, id);
        if (broadcast) broadcast.due_at = dueAt && new Date(dueAt);
      },
      findOnChannel: async (scope, channelId, states) =>
        data.broadcasts.filter((broadcast) => of(scope, broadcast) && broadcast.channel_id === channelId && states.includes(broadcast.status)).map(copy),
    },
    recipients: {
      // insertMany({ ordered: false }): every recipient is tried; a seq already stored is dropped, a
      // contact already a recipient is answered as a duplicate.
      insertBatch: async (recipients) => {
        fail('insertBatch');
        const duplicates: BroadcastRecipientEntity[] = [];
        for (const recipient of recipients) {
          const violated = violatedIndex(recipient);
          if (violated === null) data.recipients.push(copy(recipient));
          else if (violated.includes('dedupe_key')) duplicates.push(recipient);
        }
        return { duplicates };
      },
      // deleteMany of the broadcast's recipients from a seq on.
      discardFrom: async (scope, broadcastId, fromSeq) => {
        data.recipients = data.recipients.filter((recipient) => !(of(scope, recipient) && recipient.broadcast_id === broadcastId && recipient.seq >= fromSeq));
      },
      // bulkWrite of upserts on {business_id, broadcast_id, seq} with $setOnInsert.
      insertSkipped: async (recipients) => {
        fail('insertSkipped');
        for (const recipient of recipients) {
          if (data.recipients.some((existing) => existing.business_id === recipient.business_id && existing.broadcast_id === recipient.broadcast_id && existing.seq === recipient.seq)) continue;
          const violated = violatedIndex(recipient);
          if (violated) throw new DuplicateKeyError(violated);
          data.recipients.push(copy(recipient));
        }
      },
      findPendingInRange: async (scope, broadcastId, fromSeq, toSeq) =>
        recipientsOf(scope, broadcastId)
          .filter((recipient) => recipient.status === 'pending' && recipient.seq >= fromSeq && recipient.seq < toSeq)
          .sort(bySeq)
          .map(copy),
      pendingSeqs: async (scope, broadcastId) =>
        recipientsOf(scope, broadcastId)
          .filter((recipient) => recipient.status === 'pending')
          .sort(bySeq)
          .map((recipient) => recipient.seq),
      claim: async (scope, id, now) => {
        const recipient = recipientOf(scope, id, 'pending');
        if (!recipient) return null;
        Object.assign(recipient, { status: 'sending', claimed_at: new Date(now) });
        return copy(recipient);
      },
      finish: async (scope, id, outcome) => {
        fail('finish');
        const recipient = recipientOf(scope, id, 'sending');
        if (!recipient) return false;
        setFields(recipient, { ...outcome, claimed_at: null } as Partial<BroadcastRecipientEntity>);
        return true;
      },
      release: async (scope, id, nextAttempt) => {
        const recipient = recipientOf(scope, id, 'sending');
        if (!recipient) return false;
        Object.assign(recipient, { status: 'pending', claimed_at: null });
        if (nextAttempt) recipient.attempt += 1;
        return true;
      },
      findStaleClaims: async (scope, broadcastId, before, limit) =>
        recipientsOf(scope, broadcastId)
          .filter((recipient) => recipient.status === 'sending' && recipient.claimed_at !== null && recipient.claimed_at.getTime() < before.getTime())
          .sort(bySeq)
          .slice(0, limit)
          .map(copy),
      hasOpenRecipients: async (scope, broadcastId) => recipientsOf(scope, broadcastId).some((recipient) => recipient.status === 'pending' || recipient.status === 'sending'),
      cancelPending: async (scope, broadcastId) => {
        const pending = recipientsOf(scope, broadcastId).filter((recipient) => recipient.status === 'pending');
        for (const recipient of pending) Object.assign(recipient, { status: 'skipped', reason: 'cancelled' });
        return pending.length;
      },
      retryFailed: async (scope, broadcastId, providerCodes) => {
        const failed = recipientsOf(scope, broadcastId).filter((recipient) => recipient.status === 'failed' && recipient.error?.provider_code != null && providerCodes.includes(recipient.error.provider_code));
        for (const recipient of failed) {
          Object.assign(recipient, { status: 'pending', error: null, attempt: recipient.attempt + 1 });
          delete recipient.message_id;
        }
        return failed.length;
      },
      countOutcomes: async (scope, broadcastId) => {
        const outcomes: RecipientOutcomes = { byStatus: {}, skippedByReason: {}, failedByCode: {} };
        for (const { status, reason, error } of recipientsOf(scope, broadcastId)) {
          outcomes.byStatus[status] = (outcomes.byStatus[status] ?? 0) + 1;
          if (status === 'skipped' && reason) outcomes.skippedByReason[reason] = (outcomes.skippedByReason[reason] ?? 0) + 1;
          if (status === 'failed' && error?.code) outcomes.failedByCode[error.code] = (outcomes.failedByCode[error.code] ?? 0) + 1;
        }
        return outcomes;
      },
      listPage: async (scope, broadcastId, { status, afterSeq, limit }) =>
        recipientsOf(scope, broadcastId)
          .filter((recipient) => (!status || recipient.status === status) && (afterSeq === undefined || recipient.seq > afterSeq))
          .sort(bySeq)
          .slice(0, limit)
          .map(copy),
    },
  };
}
