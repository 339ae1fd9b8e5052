import { setTimeout as sleep } from 'node:timers/promises';
import { fixKafkaRequestQueueIdleLoop } from './kafka-request-queue';

interface SentRequest {
  entry: { correlationId: number; resolve: () => void; reject: () => void };
  expectResponse: boolean;
  sendRequest: () => void;
}
interface RequestQueue {
  pending: unknown[];
  throttleCheckTimeoutId: unknown;
  push(request: SentRequest): void;
  fulfillRequest(response: { correlationId: number; payload: unknown; size: number }): void;
  maybeThrottle(clientSideThrottleTime: number): void;
  checkPendingRequests(): void;
  destroy(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the kafkajs module the fix changes
const KafkaRequestQueue = require('kafkajs/src/network/requestQueue') as new (options: Record<string, unknown>) => RequestQueue;

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const queues: RequestQueue[] = [];
const queueOf = (maxInFlightRequests: number | null = null): RequestQueue => {
  const queue = new KafkaRequestQueue({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'spec', broker: '127.0.0.1:9', logger: silent });
  queues.push(queue);
  return queue;
};
const requestOf = (correlationId: number, sent: number[]): SentRequest => ({
  entry: { correlationId, resolve: () => undefined, reject: () => undefined },
  expectResponse: true,
  sendRequest: () => sent.push(correlationId),
});

/** How often the queue checks its pending requests by itself (from its timer) in `ms` after one request was answered. */
async function timerChecksAfterAnAnswer(queue: RequestQueue, ms: number): Promise<number> {
  queue.push(requestOf(1, []));
  queue.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
  let checks = 0;
  const check = queue.checkPendingRequests.bind(queue);
  queue.checkPendingRequests = () => {
    checks += 1;
    check();
  };
  await sleep(ms);
  return checks;
}

afterEach(() => queues.splice(0).forEach((queue) => queue.destroy()));

describe("kafkajs' request queue", () => {
  it('as published (2.2.4), checks an empty queue in a timer loop while the connection idles', async () => {
    expect(await timerChecksAfterAnAnswer(queueOf(), 200)).toBeGreaterThan(20);
  });

  it('is fixed for the installed kafkajs (an upgrade fails here: check whether kafkajs issue #1556 is fixed, then drop the fix)', () => {
    expect(fixKafkaRequestQueueIdleLoop()).toBe(true);
  });

  it('fixed, schedules nothing while nothing is pending', async () => {
    fixKafkaRequestQueueIdleLoop();
    const queue = queueOf();
    expect(await timerChecksAfterAnAnswer(queue, 200)).toBe(0);
    expect(queue.throttleCheckTimeoutId).toBeNull();
  });

  it('fixed, sends a request held by the broker throttle once the throttle ends', async () => {
    fixKafkaRequestQueueIdleLoop();
    const queue = queueOf();
    const sent: number[] = [];
    queue.maybeThrottle(60);
    queue.push(requestOf(7, sent));
    expect(sent).toEqual([]);
    await sleep(150);
    expect(sent).toEqual([7]);
    expect(queue.pending).toHaveLength(0);
  });

  it('fixed, sends a request held by the in-flight limit when an in-flight one is answered', () => {
    fixKafkaRequestQueueIdleLoop();
    const queue = queueOf(1);
    const sent: number[] = [];
    queue.push(requestOf(1, sent));
    queue.push(requestOf(2, sent));
    expect(sent).toEqual([1]);
    queue.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
    expect(sent).toEqual([1, 2]);
  });
});
