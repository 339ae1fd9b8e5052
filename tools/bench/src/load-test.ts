// autocannon ships no types; this is the slice of its API the benchmarks use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: LoadTestOptions) => Promise<AutocannonResult>;

interface LoadTestOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

/** A fixed-duration closed-loop load on one URL (loopback only), summarised. */
export async function runLoad(options: LoadTestOptions): Promise<LoadFigures> {
  const result = await autocannon(options);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function formatFigures(label: string, figures: LoadFigures): string {
  return `${label.padEnd(44)} ${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${figures.p50Ms.toFixed(1).padStart(6)} ms   p99 ${figures.p99Ms
    .toFixed(1)
    .padStart(6)} ms   (${figures.total} requests, ${figures.non2xx} non-2xx, ${figures.errors} errors)`;
}
