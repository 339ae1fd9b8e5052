import { type SlotGrant, type SlotRequest, SlotWaitExpired, waitForSlots } from './wait-for-slots';

function scriptedBudget(answers: SlotGrant[]) {
  const requests: SlotRequest[] = [];
  const acquire = async (request: SlotRequest) => {
    requests.push(request);
    return answers.shift() ?? { granted: 1, retryInMs: 0 };
  };
  return { acquire, requests };
}

describe('waitForSlots', () => {
  it('sleeps as long as the budget says until a slot is granted', async () => {
    const { acquire } = scriptedBudget([
      { granted: 0, retryInMs: 40 },
      { granted: 0, retryInMs: 0 },
      { granted: 3, retryInMs: 0 },
    ]);
    const sleeps: number[] = [];
    const result = await waitForSlots(acquire, { channelKey: 'c', perSecond: 10, priority: 'broadcast', count: 5 }, {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expect(result.granted).toBe(3);
    expect(sleeps).toEqual([40, 1]);
  });

  it('asks under one waiter id for every attempt of a live request, and none for a broadcast', async () => {
    const live = scriptedBudget([{ granted: 0, retryInMs: 1 }]);
    await waitForSlots(live.acquire, { channelKey: 'c', perSecond: 10, priority: 'live' }, { sleep: async () => undefined });
    expect(live.requests).toHaveLength(2);
    expect(live.requests[0].waiterId).toEqual(expect.any(String));
    expect(live.requests[1].waiterId).toBe(live.requests[0].waiterId);

    const another = scriptedBudget([]);
    await waitForSlots(another.acquire, { channelKey: 'c', perSecond: 10, priority: 'live' });
    expect(another.requests[0].waiterId).not.toBe(live.requests[0].waiterId);

    const broadcast = scriptedBudget([]);
    await waitForSlots(broadcast.acquire, { channelKey: 'c', perSecond: 10, priority: 'broadcast' });
    expect(broadcast.requests[0].waiterId).toBeUndefined();
  });

  it('stops waiting when aborted', async () => {
    const { acquire } = scriptedBudget(Array.from({ length: 100 }, () => ({ granted: 0, retryInMs: 10_000 })));
    const controller = new AbortController();
    const waiting = waitForSlots(acquire, { channelKey: 'c', perSecond: 10, priority: 'live' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shutting down')), 20);
    await expect(waiting).rejects.toThrow('shutting down');
  });

  it('gives up rather than wait past its until: SlotWaitExpired, without sleeping', async () => {
    const { acquire, requests } = scriptedBudget([
      { granted: 0, retryInMs: 30 },
      { granted: 0, retryInMs: 5_000 },
    ]);
    const sleeps: number[] = [];
    const waiting = waitForSlots(acquire, { channelKey: 'c', perSecond: 10, priority: 'live' }, {
      until: Date.now() + 1_000,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await expect(waiting).rejects.toBeInstanceOf(SlotWaitExpired);
    expect(sleeps).toEqual([30]);
    expect(requests).toHaveLength(2);
  });
});
