/**
 * kafkajs 2.2.4 (its last release) keeps every broker connection's request queue in a 1 ms timer
 * loop while nothing is pending: `scheduleCheckPendingRequests` arms a timer whose delay is
 * `throttledUntil - now`, negative when the connection is not throttled, and the check it runs
 * arms the next one (kafkajs issues #1556 and #1704; the fix of pull request #1667 is not
 * released). Each app idled at 4-7 % of a core in that loop, and under load every timer also ran
 * the async hooks of the telemetry. This applies the fix: a check is scheduled only while requests
 * are pending, when the throttle ends or after kafkajs' own 10 ms; pending requests are still sent
 * when an in-flight one is answered or times out (kafkajs calls the check itself there).
 */
const PATCHED_VERSION = '2.2.4';
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/** The fields of kafkajs' RequestQueue (src/network/requestQueue) the fix reads and sets; kafkajs ships no types for it. */
interface KafkaRequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal module of kafkajs, without types or an export map
const kafkajsRequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: KafkaRequestQueueInternals };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsVersion = (require('kafkajs/package.json') as { version: string }).version;

function scheduleCheckPendingRequests(this: KafkaRequestQueueInternals): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const untilUnthrottled = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL_MS);
}

/**
 * Applies the fix to kafkajs' request queues of this process (every client, existing or future).
 * Answers false, changing nothing, for a kafkajs other than the release it was written against.
 */
export function fixKafkaRequestQueueIdleLoop(): boolean {
  if (kafkajsVersion !== PATCHED_VERSION) return false;
  kafkajsRequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  return true;
}

