import { silentLogger } from '../testing/silent-logger';
import type { DeliveryFailure, LeasedDelivery, WebhookDeliveryEntity } from '@cmsg/dal';
import { WebhookDispatcher } from './webhook-dispatcher';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from './webhook-retry';
import { verifyWebhookSignature } from './webhook-signature';

const created = new Date('2026-01-01T00:00:00Z');

function delivery(fields: Partial<WebhookDeliveryEntity> = {}): WebhookDeliveryEntity {
  return {
    _id: 'd1',
    business_id: 'b1',
    webhook_id: 'w1',
    url: 'http://old.example/hook',
    event_id: 'e1',
    event_type: 'action.failed',
    body: '{"id":"e1"}',
    status: 'pending',
    attempts: 0,
    next_attempt_at: created,
    lease_until: new Date(0),
    lease_id: null,
    last_status: null,
    last_error: null,
    created_at: created,
    delivered_at: null,
    ...fields,
  };
}

describe('WebhookDispatcher', () => {
  let queue: WebhookDeliveryEntity[];
  let delivered: { leased: LeasedDelivery; httpStatus: number }[];
  let failed: { leased: LeasedDelivery; failure: DeliveryFailure }[];
  let posts: { url: string; body: string; headers: Record<string, string> }[];
  let answer: () => Promise<number>;
  let now: Date;
  let endpointExists: boolean;

  const dispatcher = (concurrency = 1) =>
    new WebhookDispatcher(
      {
        claimDueOfAnyBusiness: async (_now: Date, _leaseMs: number, max: number) => queue.splice(0, max).map((next) => ({ delivery: next, leaseId: `lease-${next._id}` })),
        markDelivered: async (leased: LeasedDelivery, _at: Date, httpStatus: number) => void delivered.push({ leased, httpStatus }),
        markFailed: async (leased: LeasedDelivery, failure: DeliveryFailure) => void failed.push({ leased, failure }),
      } as never,
      { find: async () => (endpointExists ? { id: 'w1', url: 'http://127.0.0.1:9/hook', secret: 'whsec_test_secret_123', events: [] } : null) } as never,
      {
        post: async (url, body, headers) => {
          posts.push({ url, body, headers });
          return answer();
        },
      },
      { now: () => now },
      silentLogger,
      { retry: DEFAULT_WEBHOOK_RETRY_POLICY, concurrency, idleMs: 10, attemptTimeoutMs: 1000 },
    );

  beforeEach(() => {
    queue = [];
    delivered = [];
    failed = [];
    posts = [];
    answer = async () => 200;
    now = new Date('2026-01-01T00:00:10Z');
    endpointExists = true;
  });

  it('posts the stored body, signed with the endpoint secret, to the current endpoint URL', async () => {
    queue.push(delivery());
    expect(await dispatcher().dispatchOne()).toBe(true);
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post!.url).toBe('http://127.0.0.1:9/hook');
    expect(post!.body).toBe('{"id":"e1"}');
    expect(post!.headers['content-type']).toBe('application/json');
    expect(verifyWebhookSignature({ secret: 'whsec_test_secret_123', body: post!.body, header: post!.headers['X-Webhook-Signature'], nowSeconds: now.getTime() / 1000 })).toBe(true);
    expect(delivered.map((entry) => entry.httpStatus)).toEqual([200]);
    expect(await dispatcher().dispatchOne()).toBe(false);
  });

  it('schedules a retry with back-off after a non-2xx answer or a network error', async () => {
    answer = async () => 503;
    queue.push(delivery({ attempts: 2 }));
    await dispatcher().dispatchOne();
    expect(failed[0]!.failure).toEqual({ attempts: 3, nextAttemptAt: new Date(now.getTime() + 20_000), httpStatus: 503, error: 'HTTP 503' });
    answer = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    queue.push(delivery());
    await dispatcher().dispatchOne();
    expect(failed[1]!.failure).toMatchObject({ attempts: 1, nextAttemptAt: new Date(now.getTime() + 5_000), httpStatus: null, error: 'connect ECONNREFUSED' });
  });

  it('abandons a delivery past 24 h, and one whose endpoint was removed', async () => {
    answer = async () => 500;
    now = new Date('2026-01-01T23:59:59Z');
    queue.push(delivery({ attempts: 30 }));
    await dispatcher().dispatchOne();
    expect(failed[0]!.failure.nextAttemptAt).toBeNull();
    endpointExists = false;
    queue.push(delivery());
    await dispatcher().dispatchOne();
    expect(failed[1]!.failure).toMatchObject({ nextAttemptAt: null, error: 'the webhook endpoint was removed' });
    expect(posts).toHaveLength(1);
  });

  it('runs in the background until stopped', async () => {
    const running = dispatcher();
    queue.push(delivery(), delivery({ _id: 'd2' }));
    running.start();
    for (let attempt = 0; attempt < 50 && delivered.length < 2; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await running.stop();
    expect(delivered.map((entry) => entry.leased.delivery._id)).toEqual(['d1', 'd2']);
  });

  it('does not let a slow receiver hold up the other deliveries', async () => {
    let calls = 0;
    answer = async () => {
      calls += 1;
      if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 200));
      return 200;
    };
    const running = dispatcher(2);
    queue.push(delivery({ _id: 'slow' }), delivery({ _id: 'fast' }));
    running.start();
    for (let attempt = 0; attempt < 100 && delivered.length < 2; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await running.stop();
    expect(delivered.map((entry) => entry.leased.delivery._id)).toEqual(['fast', 'slow']);
  });
});
