import { waitForBufferSpace } from './buffer-space-wait';

/** A clock that each wake advances by the time the waiter asked for (or `step` when woken early). */
function scenario(options: { fullForMs: number; wakeEveryMs?: number; heartbeat?: () => Promise<void>; stopAtMs?: number }) {
  let clock = 0;
  const heartbeats: number[] = [];
  const wakes: number[] = [];
  const wait = waitForBufferSpace({
    isFull: () => clock < options.fullForMs,
    isRunning: () => options.stopAtMs === undefined || clock < options.stopAtMs,
    nextWake: async (timeoutMs) => {
      wakes.push(timeoutMs);
      clock += options.wakeEveryMs === undefined ? timeoutMs : Math.min(timeoutMs, options.wakeEveryMs);
    },
    heartbeat: options.heartbeat ?? (async () => void heartbeats.push(clock)),
    intervalMs: 500,
    now: () => clock,
  });
  return { wait, heartbeats, wakes };
}

describe('waitForBufferSpace', () => {
  it('returns at once, without heartbeating, when the buffer has space', async () => {
    const { wait, heartbeats, wakes } = scenario({ fullForMs: 0 });
    expect(await wait).toEqual({ outcome: 'space' });
    expect(heartbeats).toEqual([]);
    expect(wakes).toEqual([]);
  });

  it('heartbeats every interval for as long as the buffer stays full', async () => {
    const { wait, heartbeats } = scenario({ fullForMs: 60_000 });
    expect(await wait).toEqual({ outcome: 'space' });
    // 500, 1000, ..., 59 500: none once space appears at 60 000.
    expect(heartbeats).toEqual(Array.from({ length: 119 }, (_, index) => (index + 1) * 500));
  });

  it('keeps to the interval when completions wake it far more often', async () => {
    const { wait, heartbeats, wakes } = scenario({ fullForMs: 2000, wakeEveryMs: 7 });
    expect(await wait).toEqual({ outcome: 'space' });
    expect(wakes.length).toBeGreaterThan(250);
    expect(heartbeats).toEqual([500, 1000, 1500]);
  });

  it('gives up when the heartbeat fails (a rebalance) and reports the error', async () => {
    const rebalancing = new Error('The group is rebalancing');
    const { wait } = scenario({ fullForMs: 60_000, heartbeat: () => Promise.reject(rebalancing) });
    expect(await wait).toEqual({ outcome: 'heartbeat_failed', error: rebalancing });
  });

  it('stops waiting when the consumer stops', async () => {
    const { wait, heartbeats } = scenario({ fullForMs: 60_000, stopAtMs: 1200 });
    expect(await wait).toEqual({ outcome: 'stopped' });
    expect(heartbeats).toEqual([500, 1000]);
  });
});
