import { randomUUID } from 'node:crypto';
import { type WebhookEndpointEntity, WebhookDeliveryRepository, WebhookEndpointRepository, businessScope, connectMongo } from '@cmsg/dal';
import { AppProcess, WebhookReceiver, dropConnectedDatabase, freePort, integrationStack, stackEndpointListVersions, storedCollection, webhookFanOut, withDatabase } from '@cmsg/testing';

jest.setTimeout(300_000);

/** How long the runner waits for a receiver's answer (attemptTimeoutMs in apps/actions-runner/src/main.ts). */
const DEAD_ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * The delivering process on its own: an actions-runner of this file's own on a database of its own
 * (so the stack's runner never delivers these), short periods (disable after 8 s of failures,
 * retries after 0.5 s), and events fanned out straight into its queue, as the event recorder does.
 * A dead receiver (never answers: each attempt waits the 10 s timeout) must not slow a live
 * endpoint; it is disabled after the period; and kill -9 of the runner while 1,000 deliveries are
 * pending loses none.
 */
describe('webhook delivery: dead receivers, disabling, kill -9 (own actions-runner)', () => {
  const stack = integrationStack();
  const database = `cmsg_webhooks_resilience_${randomUUID().slice(0, 8)}`;
  // Written here, read by this file's runner: both bump and read the endpoint list versions in the stack's Redis.
  let endpoints: WebhookEndpointRepository;
  const deliveries = new WebhookDeliveryRepository();
  let fanOut: Awaited<ReturnType<typeof webhookFanOut>>;
  const scope = businessScope(randomUUID());
  const crashScope = businessScope(randomUUID());
  const receivers: WebhookReceiver[] = [];
  const runners: AppProcess[] = [];
  let runnerEnv: Record<string, string>;

  const startRunner = async (): Promise<AppProcess> => {
    const runner = new AppProcess(`actions-runner-webhooks-${runners.length + 1}`, 'actions-runner', { ...runnerEnv, GRPC_ADDRESS: `127.0.0.1:${await freePort()}` }, `${stack.logDir}/webhook-resilience`);
    runners.push(runner);
    runner.start();
    return runner;
  };

  const receiver = async (answer?: ConstructorParameters<typeof WebhookReceiver>[0], onReceived?: ConstructorParameters<typeof WebhookReceiver>[1]) => {
    const started = new WebhookReceiver(answer, onReceived);
    await started.start();
    receivers.push(started);
    return started;
  };

  const endpointAt = async (url: string, of = scope): Promise<WebhookEndpointEntity> => {
    const now = new Date();
    const created = await endpoints.insertInFreeSlot(of, {
      _id: randomUUID(),
      url,
      description: null,
      events: ['*'],
      enabled: true,
      secrets: [{ secret: 'whsec_cmVzaWxpZW5jZS10ZXN0LXNlY3JldC0wMTIzNDU2', expires_at: null }],
      failing_since: null,
      created_at: now,
      updated_at: now,
    });
    if (created === 'limit_reached') throw new Error('limit reached');
    return created;
  };

  const event = (type = 'message.received', of = scope) => ({
    _id: randomUUID(),
    business_id: of.businessId,
    business_slug: 'resilience',
    conversation_id: randomUUID(),
    sequence: 1,
    type,
    data: {},
    created_at: new Date(),
  });

  beforeAll(async () => {
    const uri = withDatabase(stack.env['MONGODB_URI']!, database);
    await connectMongo(uri);
    endpoints = new WebhookEndpointRepository(await stackEndpointListVersions(stack));
    fanOut = await webhookFanOut(stack);
    await endpoints.ensureIndexes();
    await deliveries.ensureIndexes();
    runnerEnv = {
      ...stack.env,
      MONGODB_URI: uri,
      KAFKA_TOPIC_PREFIX: `${stack.env['KAFKA_TOPIC_PREFIX']}webhooks-${randomUUID().slice(0, 8)}.`,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_MS: '500',
      WEBHOOK_DISABLE_AFTER_MS: '8000',
      WEBHOOK_ENDPOINT_CONCURRENCY: '4',
      WEBHOOK_CONCURRENCY: '64',
      WEBHOOK_IDLE_MS: '100',
      SHUTDOWN_GRACE_MS: '2000',
    };
    await startRunner();
  });

  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    await Promise.all(receivers.map((started) => started.stop()));
    await dropConnectedDatabase();
  });

  it('a dead receiver does not slow another endpoint, and is disabled once it failed every attempt for the period', async () => {
    const dead = await receiver(() => 'hang');
    const live = await receiver();
    const deadEndpoint = await endpointAt(`${dead.url}/dead`);
    await endpointAt(`${live.url}/live`);
    // Warm up (the runner connects and polls), then 40 events to both endpoints, 50 ms apart.
    await fanOut.fanOut(event());
    await until('the warm-up event at the live endpoint', async () => live.delivered().size === 1, 60_000);
    const queuedAt = new Map<string, number>();
    for (let index = 0; index < 40; index += 1) {
      const recorded = event();
      queuedAt.set(recorded._id, Date.now());
      await fanOut.fanOut(recorded);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await until('every event at the live endpoint', async () => {
      const arrived = live.delivered();
      return [...queuedAt.keys()].every((id) => arrived.has(id));
    }, 30_000);
    const liveLatencies = [...queuedAt].map(([id, at]) => live.received.find((entry) => entry.headers['webhook-id'] === id)!.receivedAt - at).sort((a, b) => a - b);
    const deadAttempts = await until('the dead endpoint to time out once', async () => (await deliveryStates(deadEndpoint._id)).some((delivery) => delivery.attempts > 0), 30_000);
    const firstTimeout = (await deliveryStates(deadEndpoint._id)).find((delivery) => delivery.last_attempt_at);
    console.log(
      `[webhooks] live endpoint beside a dead one: 40 events, latency p50 ${liveLatencies[20]} ms, max ${liveLatencies[39]} ms; dead endpoint: ${dead.received.length} requests held, attempts end after the 10 s timeout (${firstTimeout?.last_error})`,
    );
    expect(deadAttempts).toBe(true);
    // Not held behind the dead endpoint: a delivery waiting for one of its attempts would wait out
    // that attempt's 10 s timeout. Half of it tells the two apart with room for a loaded machine's
    // pauses, which a bound of a few hundred ms of normal latency does not have.
    expect(liveLatencies[39]).toBeLessThan(DEAD_ATTEMPT_TIMEOUT_MS / 2);
    // The cap: at most 4 attempts to the dead endpoint at once.
    expect(dead.received.filter((entry) => Date.now() - entry.receivedAt < 9_000).length).toBeLessThanOrEqual(8);

    await until('the dead endpoint to be disabled', async () => (await endpoints.findById(scope, deadEndpoint._id))?.enabled === false, 90_000);
    const stopped = await deliveryStates(deadEndpoint._id);
    await until('its pending deliveries to stop', async () => (await deliveryStates(deadEndpoint._id)).every((delivery) => delivery.status === 'failed'), 30_000);
    const disabled = await endpoints.findById(scope, deadEndpoint._id);
    console.log(`[webhooks] dead endpoint disabled ${Date.now() - disabled!.failing_since!.getTime()} ms after its first failure; ${stopped.length} deliveries stopped`);
    // Nothing new reaches a disabled endpoint.
    await fanOut.fanOut(event());
    expect((await deliveryStates(deadEndpoint._id)).length).toBe(stopped.length);
  });

  it('kill -9 of the delivering process with 1,000 deliveries pending loses none', async () => {
    let killAt = 0;
    const hook = await receiver(() => 200);
    await endpointAt(`${hook.url}/crash`, crashScope);
    const ids: string[] = [];
    const [runner] = runners.slice(-1);
    for (let batch = 0; batch < 10; batch += 1) {
      const recorded = Array.from({ length: 100 }, () => event('action.failed', crashScope));
      ids.push(...recorded.map((entry) => entry._id));
      await Promise.all(recorded.map((entry) => fanOut.fanOut(entry)));
    }
    await until('some deliveries to arrive', async () => hook.delivered().size >= 150, 60_000);
    killAt = hook.delivered().size;
    process.kill(runner!.pid!, 'SIGKILL');
    await runner!.exited();
    const arrivedBeforeRestart = hook.delivered().size;
    await startRunner();
    // delivered() parses every body: once per check, or this process (the receiver's) starves the sender.
    const missing = () => {
      const arrived = hook.delivered();
      return ids.filter((id) => !arrived.has(id));
    };
    await until('all 1,000 deliveries', async () => missing().length === 0, 120_000);
    const duplicates = hook.received.length - hook.delivered().size;
    console.log(`[webhooks] kill -9 after ${killAt} of 1000 arrived (${arrivedBeforeRestart} when it was gone): all 1000 arrived after the restart, ${duplicates} twice (at least once)`);
    expect(missing()).toEqual([]);
    await until('every delivery recorded as succeeded', async () => (await deliveryStatesOfEvents(ids)).every((delivery) => delivery.status === 'succeeded'), 30_000);
  });

  async function deliveryStates(endpointId: string) {
    return storedCollection('webhook_deliveries').find({ business_id: scope.businessId, endpoint_id: endpointId }).toArray();
  }

  async function deliveryStatesOfEvents(ids: string[]) {
    return storedCollection('webhook_deliveries').find({ business_id: crashScope.businessId, event_id: { $in: ids } }).toArray();
  }
});

async function until<Value>(what: string, check: () => Promise<Value | false>, timeoutMs: number): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
