import { businessScope } from '@cmsg/dal';
import { BUSINESS, OTHER_BUSINESS, aBroadcast } from '../testing/broadcast-builders';
import { type BroadcastData, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { inMemoryAudience, recordingEvents, recordingSlices, testClock } from '../testing/in-memory-broadcast-ports';
import { COORDINATOR_TIMING, type CoordinatorPorts } from './coordinate-broadcast.usecase';
import { runDueBroadcasts } from './run-due-broadcasts.usecase';

describe('runDueBroadcasts', () => {
  let data: BroadcastData;
  let ports: CoordinatorPorts;
  const clock = testClock();
  const at = (seconds: number) => new Date(Date.parse('2026-03-02T12:00:00Z') + seconds * 1000);

  beforeEach(() => {
    clock.at = at(0);
    data = {
      broadcasts: [
        aBroadcast({ _id: 'late', status: 'scheduled', due_at: at(-5) }),
        aBroadcast({ _id: 'early', status: 'scheduled', due_at: at(-60) }),
        aBroadcast({ _id: 'theirs', business_id: OTHER_BUSINESS, status: 'scheduled', due_at: at(-30) }),
        aBroadcast({ _id: 'not-yet', status: 'scheduled', due_at: at(5) }),
        aBroadcast({ _id: 'final', status: 'completed', due_at: null }),
      ],
      recipients: [],
    };
    ports = {
      store: inMemoryBroadcastStore(data),
      audience: inMemoryAudience([]),
      events: recordingEvents(),
      slices: recordingSlices(),
      clock,
      sendOutcome: async () => ({ kind: 'absent' }),
      messagingLimitRemaining: async () => null,
    };
  });

  const statusOf = (id: string) => data.broadcasts.find((broadcast) => broadcast._id === id)!.status;

  it("runs the step of every due broadcast of every business, and none of a broadcast not due", async () => {
    await expect(runDueBroadcasts(ports, { limit: 10, concurrency: 2 })).resolves.toBe(3);
    expect(['late', 'early', 'theirs', 'not-yet', 'final'].map(statusOf)).toEqual(['preparing', 'preparing', 'preparing', 'scheduled', 'completed']);
  });

  it('takes the oldest due first, at most limit', async () => {
    await expect(runDueBroadcasts(ports, { limit: 2, concurrency: 1 })).resolves.toBe(2);
    expect(['early', 'theirs', 'late'].map(statusOf)).toEqual(['preparing', 'preparing', 'scheduled']);
  });

  it('leaves a broadcast another replica claimed first to it: each step runs once across replicas', async () => {
    const ran = await Promise.all([runDueBroadcasts(ports, { limit: 10, concurrency: 1 }), runDueBroadcasts(ports, { limit: 10, concurrency: 3 })]);
    expect(ran[0] + ran[1]).toBe(3);
  });

  it('skips a broadcast whose lease a replica holds until it runs out', async () => {
    const leased = data.broadcasts.find((broadcast) => broadcast._id === 'early')!;
    await ports.store.broadcasts.claim(businessScope(BUSINESS), leased, at(COORDINATOR_TIMING.leaseMs / 1000));
    await expect(runDueBroadcasts(ports, { limit: 10, concurrency: 1 })).resolves.toBe(2);
    expect(statusOf('early')).toBe('scheduled');
    clock.at = at(COORDINATOR_TIMING.leaseMs / 1000);
    // Now `early` and `not-yet` are due, and the two made preparing by the first sweep.
    await expect(runDueBroadcasts(ports, { limit: 10, concurrency: 1 })).resolves.toBe(4);
    expect(statusOf('early')).toBe('preparing');
  });

  it('runs at most concurrency steps at once', async () => {
    let running = 0;
    let most = 0;
    const transition = ports.store.broadcasts.transition;
    ports.store.broadcasts.transition = async (...args) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return transition(...args);
    };
    await expect(runDueBroadcasts(ports, { limit: 10, concurrency: 2 })).resolves.toBe(3);
    expect(most).toBe(2);
  });
});
