import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_PREFIX } from './fake-control';
import { parseJson, sendJson } from './fake-http';

/** A phone_number_id, or `'*'` for every number that has no limit of its own. */
export type ThroughputScope = '*' | (string & NonNullable<unknown>);

/** Sends per second for every number, or per phone_number_id (a `'*'` key: every other number). */
export type ThroughputOption = number | Record<string, number>;

/** The limits in force, as GET / PUT /_fake/throughput answer them. */
export interface ThroughputSettings {
  /** The `'*'` limit; null: numbers without a limit of their own are unlimited. */
  default: number | null;
  numbers: Record<string, number>;
}

const WINDOW_MS = 1_000;
const ANY_NUMBER = '*';

/**
 * The Cloud API's per-number throughput (80 messages/s by default on the real one, error 130429
 * above it): a send is admitted when fewer than `perSecond` sends of its phone_number_id were
 * accepted with an arrival in the last 1,000 ms (so no 1,000 ms window holds more than
 * `perSecond` accepted arrivals). An admitted send holds its place while the fake answers it and
 * gives it back (`withdraw`) when it ends up not accepted, so only accepted sends count.
 */
export class CloudApiThroughput {
  private readonly initial: ReadonlyMap<string, number>;
  private limits: Map<string, number>;
  /** Arrival times (epoch ms) of admitted sends per number, oldest first, within the window. */
  private readonly admitted = new Map<string, number[]>();

  constructor(option?: ThroughputOption) {
    const entries = typeof option === 'number' ? [[ANY_NUMBER, option] as const] : Object.entries(option ?? {});
    for (const [scope, perSecond] of entries) assertPerSecond(perSecond, `throughputPerSecond ${scope}`);
    this.initial = new Map(entries);
    this.limits = new Map(entries);
  }

  /** null removes the scope's limit: a number then falls back to `'*'`, and `'*'` to unlimited. */
  set(scope: ThroughputScope, perSecond: number | null): void {
    if (perSecond === null) {
      this.limits.delete(scope);
      return;
    }
    assertPerSecond(perSecond, `throughput of ${scope}`);
    this.limits.set(scope, perSecond);
  }

  limitFor(phoneNumberId: string): number | undefined {
    return this.limits.get(phoneNumberId) ?? this.limits.get(ANY_NUMBER);
  }

  settings(): ThroughputSettings {
    const numbers = Object.fromEntries([...this.limits].filter(([scope]) => scope !== ANY_NUMBER));
    return { default: this.limits.get(ANY_NUMBER) ?? null, numbers };
  }

  /** Counts a send that arrived at `atMs` unless its number's window is full (then false: 130429). */
  admit(phoneNumberId: string, atMs: number): boolean {
    const times = this.admitted.get(phoneNumberId) ?? [];
    let expired = 0;
    while (expired < times.length && times[expired]! <= atMs - WINDOW_MS) expired += 1;
    times.splice(0, expired);
    const limit = this.limitFor(phoneNumberId);
    if (limit !== undefined && times.length >= limit) return false;
    times.push(atMs);
    this.admitted.set(phoneNumberId, times);
    return true;
  }

  /** Gives back the place of an admitted send that was not accepted after all. */
  withdraw(phoneNumberId: string, atMs: number): void {
    const times = this.admitted.get(phoneNumberId);
    const index = times?.lastIndexOf(atMs) ?? -1;
    if (index >= 0) times?.splice(index, 1);
  }

  /** Back to the limits given at construction, with empty windows. */
  reset(): void {
    this.limits = new Map(this.initial);
    this.admitted.clear();
  }
}

/**
 * GET /_fake/throughput -> ThroughputSettings; PUT /_fake/throughput `{ phone_number_id?, per_second }`
 * (per_second a whole number >= 0, or null to remove the limit; no phone_number_id: `'*'`).
 * Returns false when the path is not this route.
 */
export function handleThroughputControl(throughput: CloudApiThroughput, req: IncomingMessage, res: ServerResponse, body: Buffer, url: URL): boolean {
  if (url.pathname !== `${CONTROL_PREFIX}throughput`) return false;
  if (req.method === 'GET') {
    sendJson(res, 200, throughput.settings());
    return true;
  }
  if (req.method !== 'PUT') {
    sendJson(res, 405, { error: 'GET or PUT /_fake/throughput' });
    return true;
  }
  const input = parseJson(body) as { phone_number_id?: unknown; per_second?: unknown } | undefined;
  const scope = input?.phone_number_id ?? ANY_NUMBER;
  const perSecond = input?.per_second;
  if (typeof scope !== 'string' || scope === '' || !(perSecond === null || isPerSecond(perSecond))) {
    sendJson(res, 400, { error: 'expected { phone_number_id?: string, per_second: whole number >= 0 | null }' });
    return true;
  }
  throughput.set(scope, perSecond);
  sendJson(res, 200, throughput.settings());
  return true;
}

function isPerSecond(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function assertPerSecond(value: unknown, what: string): void {
  if (!isPerSecond(value)) throw new RangeError(`FakeCloudApi: ${what} must be a whole number >= 0, got ${String(value)}`);
}
