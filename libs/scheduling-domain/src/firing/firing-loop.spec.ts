import { FiringLoop } from './firing-loop';

/** A pass the test finishes by hand, recording when each one started. */
class ControlledPass {
  readonly started: number[] = [];
  private finishers: ((result: { full: boolean }) => void)[] = [];

  readonly run = () => {
    this.started.push(Date.now());
    return new Promise<{ full: boolean }>((resolve) => this.finishers.push(resolve));
  };

  finish(full = false): void {
    this.finishers.shift()!({ full });
  }
}

describe('FiringLoop', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  const settle = () => jest.advanceTimersByTimeAsync(0);

  it('runs one pass at a time, pausing the interval between passes', async () => {
    const pass = new ControlledPass();
    const loop = new FiringLoop(pass.run, { intervalMs: 1000, dueEveryMs: 60_000, onError: () => undefined });
    loop.start();
    await settle();
    expect(pass.started).toEqual([0]);
    await jest.advanceTimersByTimeAsync(5000);
    expect(pass.started).toHaveLength(1);
    pass.finish();
    await jest.advanceTimersByTimeAsync(999);
    expect(pass.started).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(pass.started).toEqual([0, 6000]);
  });

  it('runs again at once after a full batch, and after a wake that came during a pass', async () => {
    const pass = new ControlledPass();
    const loop = new FiringLoop(pass.run, { intervalMs: 1000, dueEveryMs: 60_000, onError: () => undefined });
    loop.start();
    await settle();
    pass.finish(true);
    await settle();
    expect(pass.started).toEqual([0, 0]);
    loop.wake();
    pass.finish(false);
    await settle();
    expect(pass.started).toEqual([0, 0, 0]);
    pass.finish(false);
    await jest.advanceTimersByTimeAsync(500);
    loop.wake();
    await settle();
    expect(pass.started).toEqual([0, 0, 0, 500]);
  });

  it('also runs a pass right as each due moment (whole minute) comes, between intervals', async () => {
    jest.setSystemTime(59_700);
    const pass = new ControlledPass();
    const loop = new FiringLoop(pass.run, { intervalMs: 1000, dueEveryMs: 60_000, onError: () => undefined });
    loop.start();
    await settle();
    pass.finish();
    await jest.advanceTimersByTimeAsync(300);
    expect(pass.started).toEqual([59_700, 60_000]);
    pass.finish();
    await jest.advanceTimersByTimeAsync(1000);
    expect(pass.started).toEqual([59_700, 60_000, 61_000]);
  });

  it('keeps going after a failed pass, and stop waits for the pass under way', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let release: () => void = () => undefined;
    const loop = new FiringLoop(
      () => {
        calls += 1;
        if (calls === 1) return Promise.reject(new Error('database down'));
        return new Promise((resolve) => (release = () => resolve({ full: false })));
      },
      { intervalMs: 1000, dueEveryMs: 60_000, onError: (error) => errors.push(error) },
    );
    loop.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(errors).toEqual([new Error('database down')]);
    expect(calls).toBe(2);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(2);
  });
});
