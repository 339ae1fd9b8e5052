import type { Consumer } from 'kafkajs';
import { createLogger } from '../logger';
import { restartAfterCrashes } from './kafka-crash-restart';

const EVENTS = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' } as const;

describe('restartAfterCrashes', () => {
  let calls: string[];
  let listeners: Map<string, ((event: { payload: unknown }) => void)[]>;
  let consumer: Pick<Consumer, 'on' | 'events' | 'connect'>;
  const emit = (event: string, payload: unknown) => (listeners.get(event) ?? []).forEach((listener) => listener({ payload }));
  const crash = (restart: boolean) => emit(EVENTS.CRASH, { error: new Error('Failed to find group coordinator'), groupId: 'g', restart });
  /** The calls made once `ms` more have passed. */
  const after = async (ms: number) => {
    await jest.advanceTimersByTimeAsync(ms);
    return [...calls];
  };
  const start = (failingConnects = 0) => {
    let failuresLeft = failingConnects;
    consumer = {
      events: EVENTS,
      on: ((event: string, listener: (event: { payload: unknown }) => void) => {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return () => undefined;
      }) as Consumer['on'],
      connect: async () => {
        calls.push('connect');
        if (failuresLeft-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:9092');
      },
    } as unknown as Pick<Consumer, 'on' | 'events' | 'connect'>;
    return restartAfterCrashes(consumer, async () => void calls.push('run'), createLogger('test', 'silent'), 'test', { baseMs: 100, maxMs: 400 });
  };

  beforeEach(() => {
    jest.useFakeTimers();
    calls = [];
    listeners = new Map();
  });
  afterEach(() => jest.useRealTimers());

  it('connects and runs the consumer again after a crash kafkajs does not restart from, doubling the wait while it keeps crashing, up to its cap', async () => {
    start();
    crash(false);
    expect(await after(99)).toEqual([]);
    expect(await after(1)).toEqual(['connect', 'run']);
    crash(false);
    expect(await after(199)).toHaveLength(2);
    expect(await after(1)).toEqual(['connect', 'run', 'connect', 'run']);
    crash(false);
    await after(400);
    crash(false);
    expect(await after(399)).toHaveLength(6);
    expect(await after(1)).toHaveLength(8);
  });

  it('tries again, waiting longer, while the broker cannot be reached', async () => {
    start(2);
    crash(false);
    expect(await after(100 + 200)).toEqual(['connect', 'connect']);
    expect(await after(400)).toEqual(['connect', 'connect', 'connect', 'run']);
  });

  it('waits the shortest time again once the consumer has joined its group', async () => {
    start();
    crash(false);
    await after(100);
    crash(false);
    await after(200);
    emit(EVENTS.GROUP_JOIN, { memberId: 'm', memberAssignment: {} });
    calls.length = 0;
    crash(false);
    expect(await after(100)).toEqual(['connect', 'run']);
  });

  it('leaves a crash kafkajs restarts from to kafkajs', async () => {
    start();
    crash(true);
    expect(await after(30_000)).toEqual([]);
  });

  it('runs nothing once cancelled, a restart already waiting included', async () => {
    const restart = start();
    crash(false);
    restart.cancel();
    crash(false);
    expect(await after(30_000)).toEqual([]);
  });
});
