import { gapPercentile, maxInAnyWindow } from '@cmsg/testing';

/** One send as the fake Cloud API recorded it (the fields of its CloudApiRecord read here). */
export interface ProviderArrival {
  /** Arrival, epoch ms. */
  at_ms: number;
  /** The recipient (phone digits or BSUID). */
  to?: string | undefined;
  /** 200 accepted; anything else refused (0: no answer). */
  status: number;
  error_code?: number | undefined;
}

/** What the provider saw of a run of sends: pacing, and whether anyone got one twice. */
export interface ArrivalFigures {
  calls: number;
  accepted: number;
  /** Calls answered 130429 (above the number's throughput). */
  throttled: number;
  /** Calls refused with another answer. */
  otherRefusals: number;
  recipientsReached: number;
  /** Recipients with more than one accepted send: must be 0. */
  acceptedMoreThanOnce: number;
  /** Recipients called more than once (a 130429 and its retry count here; only one was accepted). */
  calledMoreThanOnce: number;
  /** The most calls (accepted or not) in any 1,000 ms window. */
  maxCallsInAnySecond: number;
  maxAcceptedInAnySecond: number;
  /** Accepted sends over first to last accepted arrival. */
  meanAcceptedPerSecond: number;
  /** Gaps between consecutive accepted arrivals. */
  gapP50Ms: number;
  gapP99Ms: number;
  /** First to last accepted arrival. */
  durationMs: number;
}

const THROUGHPUT_REFUSAL = 130429;

export function arrivalFigures(arrivals: readonly ProviderArrival[]): ArrivalFigures {
  const accepted = arrivals.filter((arrival) => arrival.status === 200);
  const acceptedTimes = accepted.map((arrival) => arrival.at_ms).sort((a, b) => a - b);
  const throttled = arrivals.filter((arrival) => arrival.error_code === THROUGHPUT_REFUSAL).length;
  const acceptedPerRecipient = countBy(accepted);
  const callsPerRecipient = countBy(arrivals);
  const durationMs = acceptedTimes.length > 0 ? acceptedTimes.at(-1)! - acceptedTimes[0]! : 0;
  return {
    calls: arrivals.length,
    accepted: accepted.length,
    throttled,
    otherRefusals: arrivals.length - accepted.length - throttled,
    recipientsReached: acceptedPerRecipient.size,
    acceptedMoreThanOnce: [...acceptedPerRecipient.values()].filter((count) => count > 1).length,
    calledMoreThanOnce: [...callsPerRecipient.values()].filter((count) => count > 1).length,
    maxCallsInAnySecond: maxInAnyWindow(arrivals.map((arrival) => arrival.at_ms)),
    maxAcceptedInAnySecond: maxInAnyWindow(acceptedTimes),
    meanAcceptedPerSecond: durationMs > 0 ? ((acceptedTimes.length - 1) * 1000) / durationMs : Number.NaN,
    gapP50Ms: gapPercentile(acceptedTimes, 50),
    gapP99Ms: gapPercentile(acceptedTimes, 99),
    durationMs,
  };
}

/** Accepted arrivals within [fromMs, toMs), per second of that window. */
export function acceptedRateBetween(arrivals: readonly ProviderArrival[], fromMs: number, toMs: number): { count: number; perSecond: number } {
  const count = arrivals.filter((arrival) => arrival.status === 200 && arrival.at_ms >= fromMs && arrival.at_ms < toMs).length;
  return { count, perSecond: toMs > fromMs ? (count * 1000) / (toMs - fromMs) : Number.NaN };
}

function countBy(arrivals: readonly ProviderArrival[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { to } of arrivals) if (to !== undefined) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}

/** Accepted arrivals per bucket of `bucketMs` from the first one: how the rate went over the run. */
export function acceptedPerBucket(arrivals: readonly ProviderArrival[], bucketMs: number): number[] {
  const times = arrivals.filter((arrival) => arrival.status === 200).map((arrival) => arrival.at_ms);
  if (times.length === 0) return [];
  const first = Math.min(...times);
  const buckets: number[] = new Array(Math.floor((Math.max(...times) - first) / bucketMs) + 1).fill(0);
  for (const time of times) buckets[Math.floor((time - first) / bucketMs)]! += 1;
  return buckets;
}
