import { type PrometheusSample, integrationStack, parsePrometheusText, sampleTotal } from '@cmsg/testing';
import {
  createSchedulingBusiness,
  humanSchedule,
  isFinal,
  makeDueNow,
  openConversation,
  type SchedulingBusiness,
  waitForSchedule,
} from './scheduled-messages/scheduling-fixtures';

/**
 * Every app serves Prometheus metrics on its own METRICS_PORT (issue 14; deploy/README.md,
 * Monitoring): the series the alert rules read exist, and they move when the stack works.
 */
const ZONE = 'America/Mexico_City';
const APPS = ['gateway-1', 'gateway-2', 'conversations', 'scheduler', 'actions-runner'];

async function scrape(app: string): Promise<PrometheusSample[]> {
  const response = await fetch(integrationStack().metricsUrls[app]!);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parsePrometheusText(await response.text());
}

const has = (samples: PrometheusSample[], name: string) => samples.some((sample) => sample.name === name);

async function eventually<Value>(read: () => Promise<Value>, done: (value: Value) => boolean, timeoutMs = 20_000): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface Measured {
  before: PrometheusSample[];
  after: PrometheusSample[];
}

/**
 * Other test files use the same apps at the same time, so a measurement may also count their work:
 * it is made again, at most three times, until `countedOnce` holds. Work of ours counted twice would
 * show in every attempt.
 */
async function measureAlone(measure: (attempt: number) => Promise<Measured>, countedOnce: (measured: Measured) => boolean): Promise<Measured> {
  let measured = await measure(1);
  for (let attempt = 2; attempt <= 3 && !countedOnce(measured); attempt += 1) measured = await measure(attempt);
  return measured;
}

describe('Prometheus metrics of every app', () => {
  let business: SchedulingBusiness;
  let conversation = '';

  beforeAll(async () => {
    business = await createSchedulingBusiness((seed) => {
      conversation = openConversation(seed);
    });
  });

  it.each(APPS)('%s serves the process and Node.js series', async (app) => {
    const samples = await scrape(app);
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect({ app, name, present: has(samples, name) }).toEqual({ app, name, present: true });
    }
    expect(sampleTotal(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('HTTP requests by route template and status, gRPC calls by service, method and code, MongoDB commands and pool', async () => {
    const status = { route: '/v1/:slug/conversation/status', method: 'POST', code: '200' };
    const grpc = { service: 'cmsg.conversations.v1.ConversationsService', code: 'OK' };
    const found = (samples: PrometheusSample[]) => sampleTotal(samples, 'cmsg_http_requests_total', status);
    const notFound = (samples: PrometheusSample[]) => sampleTotal(samples, 'cmsg_http_requests_total', { ...status, code: '404' });
    const conversationsBefore = await scrape('conversations');
    // Other test files read statuses through the same gateway at the same time.
    const { before: gatewayBefore, after: gateway } = await measureAlone(
      async () => {
        const before = await scrape('gateway-1');
        const answer = await business.api.post('/conversation/status', { conversation: { uuid: conversation } });
        expect(answer.status).toBe(200);
        const missing = await business.api.post('/conversation/status', { conversation: { uuid: '00000000-0000-4000-8000-000000000000' } });
        expect(missing.status).toBe(404);
        const after = await scrape('gateway-1');
        expect(found(after)).toBeGreaterThan(found(before));
        expect(notFound(after)).toBeGreaterThan(notFound(before));
        return { before, after };
      },
      ({ before, after }) => found(after) === found(before) + 1 && notFound(after) === notFound(before) + 1,
    );
    expect(found(gateway) - found(gatewayBefore)).toBe(1);
    expect(notFound(gateway) - notFound(gatewayBefore)).toBe(1);
    expect(sampleTotal(gateway, 'cmsg_http_request_duration_seconds_count', { route: status.route })).toBeGreaterThan(sampleTotal(gatewayBefore, 'cmsg_http_request_duration_seconds_count', { route: status.route }));

    const services = await scrape('conversations');
    expect(sampleTotal(services, 'cmsg_grpc_server_requests_total', grpc)).toBeGreaterThan(sampleTotal(conversationsBefore, 'cmsg_grpc_server_requests_total', grpc));
    expect(sampleTotal(services, 'cmsg_grpc_server_requests_total', { ...grpc, code: 'CONVERSATION_NOT_FOUND' })).toBeGreaterThan(
      sampleTotal(conversationsBefore, 'cmsg_grpc_server_requests_total', { ...grpc, code: 'CONVERSATION_NOT_FOUND' }),
    );
    expect(sampleTotal(services, 'cmsg_grpc_server_duration_seconds_count', { service: grpc.service })).toBeGreaterThan(0);
    expect(sampleTotal(services, 'cmsg_mongodb_operation_duration_seconds_count', { command: 'find' })).toBeGreaterThan(sampleTotal(conversationsBefore, 'cmsg_mongodb_operation_duration_seconds_count', { command: 'find' }));
    expect(has(services, 'cmsg_mongodb_pool_connections')).toBe(true);
    expect(sampleTotal(services, 'cmsg_mongodb_pool_connections', { state: 'idle' }) + sampleTotal(services, 'cmsg_mongodb_pool_connections', { state: 'used' })).toBeGreaterThan(0);
    expect(has(services, 'cmsg_outbox_backlog')).toBe(true);
  });

  it("sends: each provider call's wait for its slot in the channel budget, by priority", async () => {
    const waited = (samples: PrometheusSample[]) => sampleTotal(samples, 'cmsg_send_slot_wait_seconds_count', { priority: 'live' });
    const before = await scrape('conversations');
    const sent = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text: 'Metrics' });
    expect(sent.status).toBe(201);
    const after = await eventually(() => scrape('conversations'), (samples) => waited(samples) > waited(before));
    expect(waited(after)).toBeGreaterThan(waited(before));
  });

  it('action groups: action durations by type and result, Kafka handler durations and consumer lag, webhook backlog', async () => {
    const note = { type: 'context_note', result: 'succeeded' };
    const commands = { topic: /conversation-commands$/ };
    const notesCounted = (samples: PrometheusSample[]) => sampleTotal(samples, 'cmsg_action_duration_seconds_count', note);
    // Other test files run groups on the same runner at the same time.
    const { before, after: runner } = await measureAlone(
      async (attempt) => {
        const before = await scrape('actions-runner');
        const submitted = await business.api.post('/conversation/actions', {
          conversation: { uuid: conversation },
          actions: [{ type: 'context_note', note: `metrics ${attempt}` }, { type: 'mark_pending' }],
        });
        expect(submitted.status).toBe(202);
        // The runner counts each action as it ends and the Kafka handler once the group is done: wait for all three.
        const after = await eventually(
          () => scrape('actions-runner'),
          (samples) =>
            notesCounted(samples) > notesCounted(before) &&
            sampleTotal(samples, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' }) > sampleTotal(before, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' }) &&
            sampleTotal(samples, 'cmsg_kafka_handler_duration_seconds_count', commands) > sampleTotal(before, 'cmsg_kafka_handler_duration_seconds_count', commands),
        );
        return { before, after };
      },
      ({ before, after }) => notesCounted(after) === notesCounted(before) + 1,
    );
    expect(notesCounted(runner)).toBe(notesCounted(before) + 1);
    expect(sampleTotal(runner, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' })).toBeGreaterThan(sampleTotal(before, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' }));
    expect(sampleTotal(runner, 'cmsg_kafka_handler_duration_seconds_count', commands)).toBeGreaterThan(sampleTotal(before, 'cmsg_kafka_handler_duration_seconds_count', commands));
    expect(runner.filter((sample) => sample.name === 'cmsg_kafka_consumer_lag' && /conversation-commands$/.test(sample.labels['topic'] ?? '') && sample.labels['group'])).not.toHaveLength(0);
    expect(has(runner, 'cmsg_webhook_backlog')).toBe(true);
  });

  it('scheduled messages: firing lateness, and the scheduler consumes conversation events', async () => {
    const fired = (samples: PrometheusSample[]) => sampleTotal(samples, 'cmsg_schedule_firing_lateness_seconds_count');
    // Other files' schedules fire on the same scheduler, some of them late on purpose: a window that
    // counted one of them is measured again.
    const { before, after: scheduler } = await measureAlone(
      async () => {
        const before = await scrape('scheduler');
        const created = await business.nextClient().post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, business.catalog));
        expect(created.status).toBe(201);
        await makeDueNow(created.body.data.uuid);
        await waitForSchedule(created.body.data.uuid, isFinal);
        return { before, after: await scrape('scheduler') };
      },
      ({ before, after }) => fired(after) === fired(before) + 1,
    );
    expect(fired(scheduler) - fired(before)).toBe(1);
    // makeDueNow put it one second in the past: it fires within the next polls.
    expect(sampleTotal(scheduler, 'cmsg_schedule_firing_lateness_seconds_sum') - sampleTotal(before, 'cmsg_schedule_firing_lateness_seconds_sum')).toBeLessThan(30);
    expect(scheduler.some((sample) => sample.name === 'cmsg_kafka_consumer_lag' && /conversation-events$/.test(sample.labels['topic'] ?? ''))).toBe(true);
    expect(sampleTotal(scheduler, 'cmsg_grpc_server_requests_total', { method: 'createScheduledMessage', code: 'OK' })).toBeGreaterThan(sampleTotal(before, 'cmsg_grpc_server_requests_total', { method: 'createScheduledMessage', code: 'OK' }));
  });
});
