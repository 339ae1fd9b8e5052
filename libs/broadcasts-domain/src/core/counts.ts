import type { BroadcastCountsEntity, RecipientOutcomes } from '@cmsg/dal';

/** CONTRACT 10.4 counts from the recipients' states: a claimed recipient still counts pending, so they always add up. */
export function countsOf(outcomes: RecipientOutcomes): BroadcastCountsEntity {
  const of = (status: keyof RecipientOutcomes['byStatus']) => outcomes.byStatus[status] ?? 0;
  const counts = {
    pending: of('pending') + of('sending'),
    sent: of('sent'),
    delivered: of('delivered'),
    read: of('read'),
    replied: of('replied'),
    failed: of('failed'),
    skipped: of('skipped'),
    unknown: of('unknown'),
  };
  return { total: Object.values(counts).reduce((sum, count) => sum + count, 0), ...counts };
}

/** Recipients whose send is done (reached the provider or ended): the progress a rate is measured on. */
export function settledCount(counts: BroadcastCountsEntity): number {
  return counts.total - counts.pending;
}
