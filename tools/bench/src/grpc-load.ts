import { percentile } from './benchmark-module';
import type { LoadFigures } from './load-test';

/**
 * A fixed-duration closed loop of `concurrency` callers, each issuing `call` again as soon as the
 * previous one answered (the gRPC counterpart of autocannon's connections), summarised.
 */
export async function runCallLoad(call: () => Promise<unknown>, options: { concurrency: number; durationSeconds: number }): Promise<LoadFigures> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + options.durationSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < until) {
        const begin = performance.now();
        try {
          await call();
          latencies.push(performance.now() - begin);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / elapsedSeconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    total: latencies.length + errors,
    non2xx: 0,
    errors,
  };
}
