import { integrationStack } from '@cmsg/testing';
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

/** One sample of the exposition text: `name{label="value",...} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

async function scrape(app: string): Promise<Sample[]> {
  const response = await fetch(integrationStack().metricsUrls[app]!);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return (await response.text())
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key!, value!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of a series whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string | RegExp> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, want]) => (typeof want === 'string' ? sample.labels[key] === want : want.test(sample.labels[key] ?? ''))))
    .reduce((sum, sample) => sum + sample.value, 0);
}

const has = (samples: Sample[], name: string) => samples.some((sample) => sample.name === name);

async function eventually<Value>(read: () => Promise<Value>, done: (value: Value) => boolean, timeoutMs = 20_000): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
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
    expect(total(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('HTTP requests by route template and status, gRPC calls by service, method and code, MongoDB commands and pool', async () => {
    const status = { route: '/v1/:slug/conversation/status', method: 'POST', code: '200' };
    const grpc = { service: 'cmsg.conversations.v1.ConversationsService', code: 'OK' };
    const [gatewayBefore, conversationsBefore] = [await scrape('gateway-1'), await scrape('conversations')];

    const answer = await business.api.post('/conversation/status', { conversation: { uuid: conversation } });
    expect(answer.status).toBe(200);
    const missing = await business.api.post('/conversation/status', { conversation: { uuid: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.status).toBe(404);

    const gateway = await scrape('gateway-1');
    expect(total(gateway, 'cmsg_http_requests_total', status) - total(gatewayBefore, 'cmsg_http_requests_total', status)).toBe(1);
    expect(total(gateway, 'cmsg_http_requests_total', { ...status, code: '404' }) - total(gatewayBefore, 'cmsg_http_requests_total', { ...status, code: '404' })).toBe(1);
    expect(total(gateway, 'cmsg_http_request_duration_seconds_count', { route: status.route })).toBeGreaterThan(total(gatewayBefore, 'cmsg_http_request_duration_seconds_count', { route: status.route }));

    const services = await scrape('conversations');
    expect(total(services, 'cmsg_grpc_server_requests_total', grpc)).toBeGreaterThan(total(conversationsBefore, 'cmsg_grpc_server_requests_total', grpc));
    expect(total(services, 'cmsg_grpc_server_requests_total', { ...grpc, code: 'CONVERSATION_NOT_FOUND' })).toBeGreaterThan(
      total(conversationsBefore, 'cmsg_grpc_server_requests_total', { ...grpc, code: 'CONVERSATION_NOT_FOUND' }),
    );
    expect(total(services, 'cmsg_grpc_server_duration_seconds_count', { service: grpc.service })).toBeGreaterThan(0);
    expect(total(services, 'cmsg_mongodb_operation_duration_seconds_count', { command: 'find' })).toBeGreaterThan(total(conversationsBefore, 'cmsg_mongodb_operation_duration_seconds_count', { command: 'find' }));
    expect(has(services, 'cmsg_mongodb_pool_connections')).toBe(true);
    expect(total(services, 'cmsg_mongodb_pool_connections', { state: 'idle' }) + total(services, 'cmsg_mongodb_pool_connections', { state: 'used' })).toBeGreaterThan(0);
    expect(has(services, 'cmsg_outbox_backlog')).toBe(true);
  });

  it('action groups: action durations by type and result, Kafka handler durations and consumer lag, webhook backlog', async () => {
    const before = await scrape('actions-runner');
    const note = { type: 'context_note', result: 'succeeded' };
    const submitted = await business.api.post('/conversation/actions', {
      conversation: { uuid: conversation },
      actions: [{ type: 'context_note', note: 'metrics' }, { type: 'mark_pending' }],
    });
    expect(submitted.status).toBe(202);

    const commands = { topic: /conversation-commands$/ };
    // The runner counts each action as it ends and the Kafka handler once the group is done: wait for all three.
    const runner = await eventually(
      () => scrape('actions-runner'),
      (samples) =>
        total(samples, 'cmsg_action_duration_seconds_count', note) > total(before, 'cmsg_action_duration_seconds_count', note) &&
        total(samples, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' }) > total(before, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' }) &&
        total(samples, 'cmsg_kafka_handler_duration_seconds_count', commands) > total(before, 'cmsg_kafka_handler_duration_seconds_count', commands),
    );
    expect(total(runner, 'cmsg_action_duration_seconds_count', note)).toBe(total(before, 'cmsg_action_duration_seconds_count', note) + 1);
    expect(total(runner, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' })).toBeGreaterThan(total(before, 'cmsg_action_duration_seconds_count', { type: 'mark_pending' }));
    expect(total(runner, 'cmsg_kafka_handler_duration_seconds_count', commands)).toBeGreaterThan(total(before, 'cmsg_kafka_handler_duration_seconds_count', commands));
    expect(runner.filter((sample) => sample.name === 'cmsg_kafka_consumer_lag' && /conversation-commands$/.test(sample.labels['topic'] ?? '') && sample.labels['group'])).not.toHaveLength(0);
    expect(has(runner, 'cmsg_webhook_backlog')).toBe(true);
  });

  it('scheduled messages: firing lateness, and the scheduler consumes conversation events', async () => {
    const before = await scrape('scheduler');
    const created = await business.nextClient().post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, business.catalog));
    expect(created.status).toBe(201);
    await makeDueNow(created.body.data.uuid);
    await waitForSchedule(created.body.data.uuid, isFinal);

    const scheduler = await scrape('scheduler');
    expect(total(scheduler, 'cmsg_schedule_firing_lateness_seconds_count')).toBeGreaterThan(total(before, 'cmsg_schedule_firing_lateness_seconds_count'));
    // makeDueNow put it one second in the past: it fires within the next polls.
    expect(total(scheduler, 'cmsg_schedule_firing_lateness_seconds_sum') - total(before, 'cmsg_schedule_firing_lateness_seconds_sum')).toBeLessThan(30);
    expect(scheduler.some((sample) => sample.name === 'cmsg_kafka_consumer_lag' && /conversation-events$/.test(sample.labels['topic'] ?? ''))).toBe(true);
    expect(total(scheduler, 'cmsg_grpc_server_requests_total', { method: 'createScheduledMessage', code: 'OK' })).toBeGreaterThan(total(before, 'cmsg_grpc_server_requests_total', { method: 'createScheduledMessage', code: 'OK' }));
  });
});
