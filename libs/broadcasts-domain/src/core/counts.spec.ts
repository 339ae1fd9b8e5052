import type { RecipientOutcomes } from '@cmsg/dal';
import { countsOf, settledCount } from './counts';

const outcomes = (byStatus: RecipientOutcomes['byStatus']): RecipientOutcomes => ({ byStatus, skippedByReason: {}, failedByCode: {} });

describe('countsOf', () => {
  it('answers zeros for a broadcast without recipients', () => {
    expect(countsOf(outcomes({}))).toEqual({ total: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 });
  });

  it('counts a claimed recipient as pending, so the counts always add up to the total', () => {
    const counts = countsOf(outcomes({ pending: 3, sending: 2, sent: 4, delivered: 5, read: 6, replied: 1, failed: 2, skipped: 7, unknown: 1 }));
    expect(counts).toEqual({ total: 31, pending: 5, sent: 4, delivered: 5, read: 6, replied: 1, failed: 2, skipped: 7, unknown: 1 });
    const { total, ...states } = counts;
    expect(Object.values(states).reduce((sum, count) => sum + count, 0)).toBe(total);
  });
});

describe('settledCount', () => {
  it('is every recipient no longer pending or claimed', () => {
    expect(settledCount(countsOf(outcomes({ pending: 3, sending: 2, sent: 4, failed: 1, skipped: 2, unknown: 1 })))).toBe(8);
    expect(settledCount(countsOf(outcomes({ pending: 3 })))).toBe(0);
  });
});
