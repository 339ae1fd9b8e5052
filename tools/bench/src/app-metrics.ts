import { type PrometheusSample, parsePrometheusText } from '@cmsg/testing';
import type { FiguresRecorder } from './figures-recorder';

/** Each app's samples, by app name. */
export type AppMetrics = Record<string, PrometheusSample[]>;

export async function scrapeAppMetrics(urls: Readonly<Record<string, string>>): Promise<AppMetrics> {
  const entries = await Promise.all(Object.entries(urls).map(async ([app, url]) => [app, parsePrometheusText(await (await fetch(url)).text())] as const));
  return Object.fromEntries(entries);
}

/** By app, how much each value of `label` of a counter grew between two scrapes, per unit of work (apps where it did not grow left out). */
export function growthPerUnit(before: AppMetrics, after: AppMetrics, series: string, label: string, units: number): Record<string, Record<string, number>> {
  const sums = (samples: readonly PrometheusSample[] = []) => {
    const byValue = new Map<string, number>();
    for (const sample of samples) if (sample.name === series) byValue.set(sample.labels[label] ?? '', (byValue.get(sample.labels[label] ?? '') ?? 0) + sample.value);
    return byValue;
  };
  const result: Record<string, Record<string, number>> = {};
  for (const [app, samples] of Object.entries(after)) {
    const earlier = sums(before[app]);
    const grown = [...sums(samples)].map(([key, value]) => [key, (value - (earlier.get(key) ?? 0)) / Math.max(1, units)] as const).filter(([, count]) => count > 0);
    if (grown.length > 0) result[app] = Object.fromEntries(grown.sort(([, a], [, b]) => b - a));
  }
  return result;
}

/**
 * Prints, and records as `<prefix>mongodb_commands_per_<unit>_<app>` and `<prefix>grpc_calls_per_<unit>_<app>`,
 * the MongoDB commands each app sent (by command) and the gRPC calls it served (by method) per unit of work.
 */
export function reportCallsPerUnit(before: AppMetrics, after: AppMetrics, units: number, unit: string, recorder: FiguresRecorder, prefix = ''): void {
  for (const [series, label, title, figure] of [
    ['cmsg_mongodb_operation_duration_seconds_count', 'command', 'MongoDB commands', 'mongodb_commands'],
    ['cmsg_grpc_server_requests_total', 'method', 'gRPC calls served', 'grpc_calls'],
  ] as const) {
    for (const [app, counts] of Object.entries(growthPerUnit(before, after, series, label, units))) {
      const all = Object.values(counts).reduce((sum, count) => sum + count, 0);
      console.log(`${prefix}${title} per ${unit}, ${app}: ${all.toFixed(2)} (${Object.entries(counts).map(([key, count]) => `${key} ${count.toFixed(2)}`).join(', ')})`);
      recorder.record(`${prefix}${figure}_per_${unit}_${app}`, all, 'count');
    }
  }
}

/**
 * Prints, and records as `<prefix>event_loop_delay_p99_ms_<app>`, each app's event loop delay p99
 * since the scrape before `after` (the apps' gauge starts over at each scrape): how long work that
 * was ready waited for the loop, the floor of every latency through that app.
 */
export function reportEventLoopDelay(after: AppMetrics, recorder: FiguresRecorder, prefix = ''): void {
  const delays = Object.entries(after).flatMap(([app, samples]) => {
    const p99 = samples.find((sample) => sample.name === 'nodejs_eventloop_lag_p99_seconds');
    return p99 ? [[app, p99.value * 1000] as const] : [];
  });
  if (delays.length === 0) return;
  console.log(`${prefix}event loop delay p99: ${delays.map(([app, ms]) => `${app} ${ms.toFixed(0)} ms`).join(', ')}`);
  for (const [app, ms] of delays) recorder.record(`${prefix}event_loop_delay_p99_ms_${app}`, ms, 'ms');
}

/**
 * By app, for each value of `label` of histogram `series` with at least `minCount` observations
 * between two scrapes: the upper bound of the bucket that holds quantile `q` of them (Infinity past
 * the last bound), with the count. The apps' buckets are coarse (…, 50, 100, 250, 500 ms, …): this
 * says which step a tail reaches, not its exact value.
 */
export function quantileBuckets(before: AppMetrics, after: AppMetrics, series: string, label: string, q: number, minCount = 1): Record<string, Record<string, { le: number; count: number }>> {
  const buckets = (samples: readonly PrometheusSample[] = []) => {
    const byValue = new Map<string, Map<number, number>>();
    for (const sample of samples) {
      if (sample.name !== `${series}_bucket`) continue;
      const value = sample.labels[label] ?? '';
      const le = sample.labels['le'] === '+Inf' ? Number.POSITIVE_INFINITY : Number(sample.labels['le']);
      const counts = byValue.get(value) ?? new Map<number, number>();
      counts.set(le, (counts.get(le) ?? 0) + sample.value);
      byValue.set(value, counts);
    }
    return byValue;
  };
  const result: Record<string, Record<string, { le: number; count: number }>> = {};
  for (const [app, samples] of Object.entries(after)) {
    const earlier = buckets(before[app]);
    for (const [value, counts] of buckets(samples)) {
      const cumulative = [...counts].map(([le, count]) => [le, count - (earlier.get(value)?.get(le) ?? 0)] as const).sort(([a], [b]) => a - b);
      const total = cumulative[cumulative.length - 1]?.[1] ?? 0;
      if (total < minCount) continue;
      const [le] = cumulative.find(([, count]) => count >= q * total)!;
      (result[app] ??= {})[value] = { le, count: total };
    }
  }
  return result;
}

/**
 * Prints, and records as `<prefix>p99_bucket_ms_<app>_<kind>_<value>`, where the p99 of each hop
 * of the apps lies: the HTTP routes answered, the gRPC methods served and the MongoDB commands sent
 * (quantileBuckets), for the values seen at least `minCount` times.
 */
export function reportP99Buckets(before: AppMetrics, after: AppMetrics, recorder: FiguresRecorder, prefix = '', minCount = 100): void {
  const ms = (le: number) => (Number.isFinite(le) ? `${Math.round(le * 1000)} ms` : 'over the last bound');
  for (const [series, label, kind] of [
    ['cmsg_http_request_duration_seconds', 'route', 'http'],
    ['cmsg_grpc_server_duration_seconds', 'method', 'grpc'],
    ['cmsg_mongodb_operation_duration_seconds', 'command', 'mongodb'],
  ] as const) {
    for (const [app, byValue] of Object.entries(quantileBuckets(before, after, series, label, 0.99, minCount))) {
      console.log(`${prefix}p99 at most, ${kind}, ${app}: ${Object.entries(byValue).map(([value, { le, count }]) => `${value} ${ms(le)} (${count})`).join(', ')}`);
      for (const [value, { le }] of Object.entries(byValue)) recorder.record(`${prefix}p99_bucket_ms_${app}_${kind}_${value}`, le * 1000, 'ms');
    }
  }
}

/** The MongoDB commands that write; a bulk insert of 500 documents is one `insert`. */
const MONGODB_WRITE_COMMANDS: ReadonlySet<string> = new Set(['insert', 'update', 'delete', 'findAndModify']);

/** The write commands among counts by command name (growthPerUnit of `cmsg_mongodb_operation_duration_seconds_count` by `command`). */
export function writeCommandsOf(countsByCommand: Readonly<Record<string, number>>): number {
  return Object.entries(countsByCommand).reduce((sum, [command, count]) => sum + (MONGODB_WRITE_COMMANDS.has(command) ? count : 0), 0);
}
