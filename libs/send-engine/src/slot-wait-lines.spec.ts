import { SlotWaitLines } from './slot-wait-lines';
import { type SlotGrant, type SlotRequest, SlotWaitExpired } from './wait-for-slots';

/** A budget whose slots the test frees one at a time; every request is recorded. */
function gatedBudget() {
  const requests: SlotRequest[] = [];
  let free = 0;
  const acquire = async (request: SlotRequest): Promise<SlotGrant> => {
    requests.push(request);
    if (free > 0) {
      free -= 1;
      return { granted: 1, retryInMs: 0, slotId: `slot-${requests.length}` };
    }
    return { granted: 0, retryInMs: 5 };
  };
  return { acquire, requests, freeSlots: (count: number) => (free += count) };
}

const broadcast = (broadcastKey = 'b1'): Omit<SlotRequest, 'waiterId'> => ({ channelKey: 'channel', perSecond: 80, priority: 'broadcast', broadcastKey, broadcastPerSecond: 80 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('SlotWaitLines', () => {
  it('asks at once while nobody of the process waits for the same slots', async () => {
    const budget = gatedBudget();
    budget.freeSlots(2);
    const lines = new SlotWaitLines(budget.acquire);
    const [first, second] = await Promise.all([lines.waitForSlots(broadcast()), lines.waitForSlots(broadcast())]);
    expect([first.slotId, second.slotId]).toEqual(['slot-1', 'slot-2']);
    expect(budget.requests).toHaveLength(2);
    expect(lines.waiting(broadcast())).toBe(0);
  });

  it('forms no line while the budget has room: the sends ask side by side', async () => {
    let asking = 0;
    let mostAtOnce = 0;
    const lines = new SlotWaitLines(async () => {
      asking += 1;
      mostAtOnce = Math.max(mostAtOnce, asking);
      await new Promise((resolve) => setTimeout(resolve, 10));
      asking -= 1;
      return { granted: 1, retryInMs: 0, slotId: 'slot' };
    });
    await Promise.all(Array.from({ length: 8 }, () => lines.waitForSlots(broadcast())));
    expect(mostAtOnce).toBe(8);
  });

  it('lets only the first of the waiting sends ask the budget, and each gets its slot in turn', async () => {
    const budget = gatedBudget();
    const lines = new SlotWaitLines(budget.acquire);
    const granted: string[] = [];
    const sends = ['a', 'b', 'c', 'd', 'e'].map((name) => lines.waitForSlots(broadcast()).then(() => granted.push(name)));
    await settle();
    const asked = budget.requests.length;
    // Five refused sends, then about six polls of 5 ms in 30 ms by the first in line (five askers would make thirty).
    expect(asked).toBeGreaterThan(1);
    expect(asked).toBeLessThan(15);
    expect(lines.waiting(broadcast())).toBe(5);

    budget.freeSlots(5);
    await Promise.all(sends);
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(lines.waiting(broadcast())).toBe(0);
  });

  it('keeps one line per broadcast of a channel, and live sends out of every line', async () => {
    const budget = gatedBudget();
    const lines = new SlotWaitLines(budget.acquire);
    const waiting = [lines.waitForSlots(broadcast('b1')), lines.waitForSlots(broadcast('b1')), lines.waitForSlots(broadcast('b2'))];
    const live = lines.waitForSlots({ channelKey: 'channel', perSecond: 80, priority: 'live' });
    await settle();
    expect(lines.waiting(broadcast('b1'))).toBe(2);
    expect(lines.waiting(broadcast('b2'))).toBe(1);
    const askers = new Set(budget.requests.map((request) => `${request.priority}:${request.broadcastKey ?? ''}:${request.waiterId ?? ''}`));
    expect(askers.size).toBe(3);
    budget.freeSlots(4);
    await Promise.all([...waiting, live]);
  });

  it('gives up a place in line at its until, and the line goes on without it', async () => {
    const budget = gatedBudget();
    const lines = new SlotWaitLines(budget.acquire);
    const first = lines.waitForSlots(broadcast());
    const impatient = lines.waitForSlots(broadcast(), { until: Date.now() + 20 });
    const third = lines.waitForSlots(broadcast());
    await expect(impatient).rejects.toBeInstanceOf(SlotWaitExpired);
    expect(lines.waiting(broadcast())).toBe(2);
    budget.freeSlots(2);
    await expect(Promise.all([first, third])).resolves.toHaveLength(2);
    expect(lines.waiting(broadcast())).toBe(0);
  });

  it('passes the turn on when the first gives up or is aborted', async () => {
    const budget = gatedBudget();
    const lines = new SlotWaitLines(budget.acquire);
    const controller = new AbortController();
    const first = lines.waitForSlots(broadcast(), { until: Date.now() + 20 });
    const aborted = lines.waitForSlots(broadcast(), { signal: controller.signal });
    const last = lines.waitForSlots(broadcast());
    controller.abort(new Error('shutting down'));
    await expect(aborted).rejects.toThrow('shutting down');
    await expect(first).rejects.toBeInstanceOf(SlotWaitExpired);
    budget.freeSlots(1);
    await expect(last).resolves.toMatchObject({ granted: 1 });
    expect(lines.waiting(broadcast())).toBe(0);
  });
});
