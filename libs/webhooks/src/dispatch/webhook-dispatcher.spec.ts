import { Webhook } from 'standardwebhooks';
import { newDelivery } from '../fan-out/event-fan-out';
import { verifyXWebhookSignature } from '../signing/webhook-signatures';
import { endpointEntity, InMemoryWebhookStore } from '../testing/in-memory-webhook-store';
import { silentLogger } from '../testing/silent-logger';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from './retry-schedule';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('WebhookDispatcher', () => {
  let store: InMemoryWebhookStore;
  let now: Date;
  let posts: { url: string; body: string; headers: Record<string, string> }[];
  let answer: (url: string) => Promise<number>;

  const dispatcher = (options: Partial<WebhookDispatcherOptions> = {}) =>
    new WebhookDispatcher(
      {
        deliveries: store.deliveryRepository,
        endpoints: store.endpointRepository,
        transport: {
          post: async (url, body, headers) => {
            posts.push({ url, body, headers });
            return answer(url);
          },
        },
        clock: { now: () => now },
        logger: silentLogger,
      },
      { retry: DEFAULT_WEBHOOK_RETRY_POLICY, concurrency: 10, endpointConcurrency: 2, idleMs: 10, attemptTimeoutMs: 1000, disableAfterMs: 3 * 24 * 3_600_000, ...options },
    );

  const queue = (eventId: string, endpointId = 'e1') =>
    store.deliveryRepository.enqueueMany([newDelivery({ _id: eventId, business_id: 'b1', type: 'action.failed' }, { _id: endpointId }, `{"id":"${eventId}"}`, now)]);

  beforeEach(() => {
    store = new InMemoryWebhookStore();
    store.endpoints.push(endpointEntity({ _id: 'e1', url: 'https://hooks.example.com/one', secrets: [{ secret: SECRET, expires_at: null }] }));
    // The real time: receivers (standardwebhooks) refuse timestamps older than 5 minutes.
    now = new Date();
    posts = [];
    answer = async () => 200;
  });

  it('posts the stored body with both signatures to the current URL and records the success', async () => {
    await queue('ev1');
    const running = dispatcher();
    expect((await running.dispatchDue()).started).toBe(1);
    await running.settled();
    const [post] = posts;
    expect(post!.url).toBe('https://hooks.example.com/one');
    expect(post!.body).toBe('{"id":"ev1"}');
    expect(post!.headers['webhook-id']).toBe('ev1');
    expect(new Webhook(SECRET).verify(post!.body, post!.headers)).toEqual({ id: 'ev1' });
    expect(verifyXWebhookSignature({ secret: SECRET, body: post!.body, header: post!.headers['X-Webhook-Signature'], nowSeconds: now.getTime() / 1000 })).toBe(true);
    expect(store.deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200, next_attempt_at: null, due_at: null });
    expect((await running.dispatchDue()).started).toBe(0);
  });

  it('retries a failure with back-off and marks the endpoint failing; a success clears it', async () => {
    answer = async () => 503;
    await queue('ev1');
    const running = dispatcher();
    await running.dispatchDue();
    await running.settled();
    const [delivery] = store.deliveries;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503, last_error: 'HTTP 503' });
    expect(delivery!.next_attempt_at!.getTime() - now.getTime()).toBeGreaterThanOrEqual(2_500);
    expect(delivery!.next_attempt_at!.getTime() - now.getTime()).toBeLessThanOrEqual(5_000);
    expect(store.endpoint('e1')!.failing_since).toEqual(now);

    expect((await running.dispatchDue()).started).toBe(0);
    now = delivery!.next_attempt_at!;
    answer = async () => 204;
    await running.dispatchDue();
    await running.settled();
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 204 });
    expect(store.endpoint('e1')!.failing_since).toBeNull();
  });

  it('gives up after the retry window: failed', async () => {
    answer = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    await queue('ev1');
    store.deliveries[0]!.retry_until = new Date(now.getTime() + 1000);
    const running = dispatcher();
    await running.dispatchDue();
    await running.settled();
    expect(store.deliveries[0]).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null, last_error: 'connect ECONNREFUSED', due_at: null });
  });

  it('disables an endpoint that failed every attempt for the configured period and stops its pending deliveries', async () => {
    answer = async () => 500;
    store.endpoint('e1')!.failing_since = new Date(now.getTime() - 60_000);
    await queue('ev1');
    await queue('ev2');
    const running = dispatcher({ endpointConcurrency: 1, disableAfterMs: 60_000 });
    await running.dispatchDue();
    await running.settled();
    expect(store.endpoint('e1')!.enabled).toBe(false);
    expect(store.deliveries.map((delivery) => delivery.status)).toEqual(['failed', 'failed']);
    expect(posts).toHaveLength(1);
  });

  it('does not attempt deliveries of a disabled or deleted endpoint', async () => {
    store.endpoint('e1')!.enabled = false;
    await queue('ev1');
    await queue('ev2', 'deleted');
    const running = dispatcher();
    await running.dispatchDue();
    await running.settled();
    expect(posts).toHaveLength(0);
    expect(store.deliveries.map((delivery) => [delivery.status, delivery.last_error])).toEqual([
      ['failed', 'the webhook endpoint is disabled'],
      ['failed', 'the webhook endpoint was deleted'],
    ]);
  });

  it("keeps an endpoint at its cap and lets others' deliveries through: a slow receiver holds back no one else", async () => {
    store.endpoints.push(endpointEntity({ _id: 'e2', url: 'https://fast.example.com/' }));
    let releaseSlow: () => void = () => undefined;
    const slow = new Promise<number>((resolve) => (releaseSlow = () => resolve(200)));
    answer = (url) => (url.includes('fast') ? Promise.resolve(200) : slow);
    for (let index = 0; index < 5; index += 1) await queue(`slow-${index}`);
    for (let index = 0; index < 3; index += 1) await queue(`fast-${index}`, 'e2');
    const running = dispatcher({ endpointConcurrency: 2, concurrency: 10 });
    running.start();
    for (let round = 0; round < 100 && store.deliveries.filter((delivery) => delivery.status === 'succeeded').length < 3; round += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(store.deliveries.filter((delivery) => delivery.endpoint_id === 'e2').map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(posts.filter((post) => post.url.includes('one'))).toHaveLength(2);
    releaseSlow();
    for (let round = 0; round < 100 && store.deliveries.some((delivery) => delivery.status !== 'succeeded'); round += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await running.stop();
    expect(store.deliveries.every((delivery) => delivery.status === 'succeeded')).toBe(true);
  });

  it('signs with every live secret during a rotation', async () => {
    const previous = 'whsec_cHJldmlvdXMtc2VjcmV0LWtleS0xMjM0NTY3OA==';
    store.endpoint('e1')!.secrets = [
      { secret: SECRET, expires_at: null },
      { secret: previous, expires_at: new Date(now.getTime() + 1000) },
      { secret: 'whsec_ZXhwaXJlZA==', expires_at: now },
    ];
    await queue('ev1');
    const running = dispatcher();
    await running.dispatchDue();
    await running.settled();
    const headers = posts[0]!.headers;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(posts[0]!.body, headers)).toEqual({ id: 'ev1' });
    expect(() => new Webhook('whsec_ZXhwaXJlZA==').verify(posts[0]!.body, headers)).toThrow();
  });
});
