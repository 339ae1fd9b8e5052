import { randomUUID } from 'node:crypto';
import { WebhookDeliveryRepository, WebhookEndpointRepository, businessScope, connectMongo, disconnectMongo } from '@cmsg/dal';
import { EVENT_TYPES } from '@cmsg/api-schemas';
import { WebhookReceiver, stackEndpointListVersions } from '@cmsg/testing';
import { cachedWebhookFanOut, generateWebhookSecret, systemClock } from '@cmsg/webhooks';
import { startBenchStack } from './bench-stack';
import { type BenchmarkModule, integerOptions, percentile } from './benchmark-module';
import type { FiguresRecorder } from './figures-recorder';
import { reportCallsPerUnit, reportP99Buckets, scrapeAppMetrics } from './app-metrics';
import { CpuMeter } from './process-cpu';

/** How long the backlog may take to drain after the enqueue window. */
const DRAIN_LIMIT_MS = 120_000;
/** Events are queued in this many slices a second. */
const TICKS_PER_SECOND = 20;

/**
 * Webhook delivery to a local receiver: events fanned out at a fixed rate (each to one endpoint of
 * one business, as the recorder does), delivered by the stack's actions-runner; figures from the
 * fan-out (enqueue) to the receiver's receipt.
 */
export const webhooksBenchmark: BenchmarkModule = {
  summary: 'webhook deliveries/s and enqueue-to-receipt latency to a local receiver (own stack and MongoDB)',
  options: [
    '--rate N         events per second (default 1000)',
    '--duration S     seconds of enqueueing (default 30)',
    '--endpoints N    endpoints, one receiver (default 10)',
    '--concurrency N  WEBHOOK_CONCURRENCY of the runner (default 64)',
    '--endpoint-concurrency N  WEBHOOK_ENDPOINT_CONCURRENCY of the runner (default 8)',
    '--cpu-prof DIR   profile every app (node --cpu-prof), profiles written there when the stack stops',
  ],
  async run(argv: string[], figures: FiguresRecorder): Promise<void> {
    const profileAt = argv.indexOf('--cpu-prof');
    const cpuProf = profileAt >= 0 ? argv[profileAt + 1] : undefined;
    const rest = profileAt >= 0 ? [...argv.slice(0, profileAt), ...argv.slice(profileAt + 2)] : argv;
    const options = figures.parameters(integerOptions(rest, { rate: 1000, duration: 30, endpoints: 10, concurrency: 64, 'endpoint-concurrency': 8 }));
    const queuedAt = new Map<string, number>();
    const latencies: number[] = [];
    let lastReceipt = 0;
    const receiver = new WebhookReceiver(
      () => 200,
      (received) => {
        const at = queuedAt.get(String(received.headers['webhook-id']));
        if (at === undefined) return;
        queuedAt.delete(String(received.headers['webhook-id']));
        latencies.push(received.receivedAt - at);
        lastReceipt = received.receivedAt;
      },
    );
    const url = await receiver.start();
    const stack = await startBenchStack({
      env: {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_CONCURRENCY: String(options.concurrency),
        WEBHOOK_ENDPOINT_CONCURRENCY: String(options['endpoint-concurrency']),
        LOG_LEVEL: 'warn',
      },
      ...(cpuProf ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] } : {}),
    });
    try {
      await connectMongo(stack.description.env['MONGODB_URI']!);
      const versions = await stackEndpointListVersions(stack.description);
      const endpoints = new WebhookEndpointRepository(versions);
      const deliveries = new WebhookDeliveryRepository();
      const fanOut = cachedWebhookFanOut({ endpoints, versions, deliveries, clock: systemClock });
      const scope = businessScope(randomUUID());
      const types = EVENT_TYPES.filter((type) => type !== 'ping').slice(0, Math.min(options.endpoints, EVENT_TYPES.length - 1));
      for (const [index, type] of types.entries()) {
        const now = new Date();
        await endpoints.insertInFreeSlot(scope, {
          _id: randomUUID(),
          url: `${url}/hooks/${index}`,
          description: null,
          events: [type],
          enabled: true,
          secrets: [{ secret: generateWebhookSecret(), expires_at: null }],
          failing_since: null,
          created_at: now,
          updated_at: now,
        });
      }
      const event = (sequence: number) => ({
        _id: randomUUID(),
        business_id: scope.businessId,
        business_slug: 'bench',
        conversation_id: randomUUID(),
        sequence,
        type: types[sequence % types.length]!,
        data: { n: sequence },
        created_at: new Date(),
      });

      const metricsBefore = await scrapeAppMetrics(stack.description.metricsUrls);
      const cpu = new CpuMeter({ 'actions-runner': stack.description.pids['actions-runner']!, mongodb: stack.mongo.pid });
      cpu.start();
      const started = Date.now();
      let sent = 0;
      const perTick = options.rate / TICKS_PER_SECOND;
      let enqueueErrors = 0;
      while (Date.now() - started < options.duration * 1000) {
        const due = Math.floor(((Date.now() - started) / 1000) * options.rate);
        const batch: ReturnType<typeof event>[] = [];
        while (sent < due && batch.length < perTick * 4) {
          batch.push(event(sent));
          sent += 1;
        }
        // A tick's events in one fan-out (one lookup, one insert), as a recorder relaying a batch would.
        const at = Date.now();
        for (const recorded of batch) queuedAt.set(recorded._id, at);
        if (batch.length > 0) await fanOut.fanOutMany(batch).catch(() => (enqueueErrors += batch.length));
        await new Promise((resolve) => setTimeout(resolve, 1000 / TICKS_PER_SECOND));
      }
      const windowMs = Date.now() - started;
      const drainDeadline = Date.now() + DRAIN_LIMIT_MS;
      while (queuedAt.size > 0 && Date.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const used = cpu.stop();
      const sorted = [...latencies].sort((a, b) => a - b);
      const overallS = (lastReceipt - started) / 1000;
      const rows: [string, number, string][] = [
        ['events queued', sent, 'events'],
        ['enqueue rate achieved', sent / (windowMs / 1000), 'events/s'],
        ['events delivered', latencies.length, 'events'],
        ['events not delivered within the drain limit', queuedAt.size, 'events'],
        ['enqueue errors', enqueueErrors, 'events'],
        ['delivered per second (first enqueue to last receipt)', latencies.length / overallS, 'events/s'],
        ['enqueue to receipt p50', percentile(sorted, 50), 'ms'],
        ['enqueue to receipt p99', percentile(sorted, 99), 'ms'],
        ['enqueue to receipt max', sorted[sorted.length - 1] ?? Number.NaN, 'ms'],
        ['actions-runner CPU', (used['actions-runner']! / overallS) * 100, '% of one core'],
        ['mongodb CPU', (used['mongodb']! / overallS) * 100, '% of one core'],
      ];
      console.log(`\nwebhooks: ${options.rate} events/s for ${options.duration} s to ${types.length} endpoints on one local receiver\n`);
      for (const [name, value, unit] of rows) {
        console.log(`  ${name.padEnd(56)} ${value.toFixed(unit === 'ms' || unit === 'events' ? 0 : 1).padStart(10)} ${unit}`);
        figures.record(name, value, unit);
      }
      // The apps' MongoDB commands per delivery and the bucket of each command's p99 (the runner's claim passes begin with the due query).
      const metricsAfter = await scrapeAppMetrics(stack.description.metricsUrls);
      reportCallsPerUnit(metricsBefore, metricsAfter, latencies.length, 'delivery', figures);
      reportP99Buckets(metricsBefore, metricsAfter, figures);
    } finally {
      await disconnectMongo();
      await stack.stop();
      await receiver.stop();
    }
  },
};
