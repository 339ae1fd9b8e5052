import { sampleResidentMemory } from './process-memory';

describe('sampleResidentMemory', () => {
  it('answers each process baseline and a peak no lower than it', async () => {
    const sampling = sampleResidentMemory({ self: process.pid }, 5);
    const held = Buffer.alloc(32 * 1024 * 1024, 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { self } = sampling.stop();
    expect(held.length).toBeGreaterThan(0);
    expect(self!.before).toBeGreaterThan(0);
    expect(self!.peak).toBeGreaterThanOrEqual(self!.before);
  });

  it('reports a process that is gone as 0 instead of failing', () => {
    expect(sampleResidentMemory({ gone: 2 ** 22 + 12345 }, 5).stop()).toEqual({ gone: { before: 0, peak: 0 } });
  });
});
