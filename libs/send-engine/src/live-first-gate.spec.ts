import { LiveFirstGate } from './live-first-gate';

describe('LiveFirstGate', () => {
  let clock: number;
  const gate = () => new LiveFirstGate({ broadcastsAlone: 3, broadcastsBesideLive: 1, liveQuietMs: 50, now: () => clock });
  const admitted = async (target: LiveFirstGate, until = clock + 1_000) => target.admitBroadcast(until);

  beforeEach(() => {
    clock = Date.now();
  });

  it('lets broadcastsAlone broadcast sends through while no live work is around', async () => {
    const target = gate();
    expect([await admitted(target), await admitted(target), await admitted(target)]).toEqual([true, true, true]);
    expect(await admitted(target, clock)).toBe(false);
    target.releaseBroadcast();
    expect(await admitted(target, clock)).toBe(true);
  });

  it('holds broadcasts to broadcastsBesideLive while live work runs and for liveQuietMs after it', async () => {
    const target = gate();
    let finishLive!: () => void;
    const live = target.live(() => new Promise<string>((resolve) => (finishLive = () => resolve('sent'))));
    expect(await admitted(target, clock)).toBe(true);
    expect(await admitted(target, clock)).toBe(false);
    finishLive();
    await expect(live).resolves.toBe('sent');
    expect(await admitted(target, clock)).toBe(false);
    clock += 50;
    expect(await admitted(target, clock)).toBe(true);
  });

  it('admits a waiting broadcast send once a place frees, and refuses one whose wait runs out', async () => {
    const target = new LiveFirstGate({ broadcastsAlone: 1, broadcastsBesideLive: 1, liveQuietMs: 50 });
    expect(await target.admitBroadcast(Date.now() + 1_000)).toBe(true);
    const waiting = target.admitBroadcast(Date.now() + 1_000);
    setTimeout(() => target.releaseBroadcast(), 20);
    await expect(waiting).resolves.toBe(true);
    await expect(target.admitBroadcast(Date.now() + 30)).resolves.toBe(false);
  });

  it('lets live work run whatever the broadcasts hold, and passes its answer or error on', async () => {
    const target = gate();
    for (let index = 0; index < 3; index += 1) await admitted(target);
    await expect(target.live(async () => 'now')).resolves.toBe('now');
    await expect(target.live(async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
