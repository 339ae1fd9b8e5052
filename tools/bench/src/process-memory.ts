import { residentBytes } from '@cmsg/testing';

/** The peak resident memory of one process, sampled from /proc/<pid>/status (Linux). */
export class RssSampler {
  peak = 0;
  samples = 0;

  constructor(private readonly pid: number) {}

  /** VmRSS in bytes. */
  read(): number {
    return residentBytes(this.pid);
  }

  sample(): void {
    try {
      this.peak = Math.max(this.peak, this.read());
      this.samples += 1;
    } catch {
      // The process is gone; the run fails on its own.
    }
  }
}

/** Samples each named process every `intervalMs` until `stop()`, which answers each one's baseline and peak in bytes. */
export function sampleResidentMemory(pids: Readonly<Record<string, number>>, intervalMs: number): { stop(): Record<string, { before: number; peak: number }> } {
  const samplers = Object.entries(pids).map(([name, pid]) => {
    const sampler = new RssSampler(pid);
    let before = 0;
    try {
      before = sampler.read();
    } catch {
      // Gone already: reported as 0.
    }
    return { name, sampler, before };
  });
  const timer = setInterval(() => samplers.forEach(({ sampler }) => sampler.sample()), intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      for (const { sampler } of samplers) sampler.sample();
      return Object.fromEntries(samplers.map(({ name, sampler, before }) => [name, { before, peak: Math.max(before, sampler.peak) }]));
    },
  };
}
