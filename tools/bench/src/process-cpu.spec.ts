import { cpuSecondsOfStat, processCpuSeconds } from './process-cpu';

describe('process CPU time', () => {
  it('reads utime and stime after the command name, spaces and parentheses in it included', () => {
    const stat = '7051 (node (worker) 1) R 7048 7048 15194 0 -1 4194304 123 0 0 0 250 75 0 0 20 0 1 0 274432 3133440 382';
    expect(cpuSecondsOfStat(stat)).toBeCloseTo(3.25);
  });

  it('refuses a line it cannot read', () => {
    expect(() => cpuSecondsOfStat('garbage')).toThrow('unexpected /proc stat line');
  });

  it('grows while this process works', () => {
    const before = processCpuSeconds(process.pid);
    // Bounded by wall time only so that a broken reading ends the test instead of hanging it.
    const giveUpAt = Date.now() + 10_000;
    while (processCpuSeconds(process.pid) === before && Date.now() < giveUpAt) for (let spin = 0; spin < 100_000; spin += 1) Math.sqrt(spin);
    expect(processCpuSeconds(process.pid)).toBeGreaterThan(before);
  });
});
