import { type Attributes, type Counter, type Histogram, type Meter, metrics } from '@opentelemetry/api';

/*
 * The metrics every app exposes on METRICS_PORT (/metrics, Prometheus text), named as
 * deploy/README.md ("Monitoring") and the alert rules read them. Instruments are made on first use,
 * after startTelemetry registered the meter provider; without it (unit tests) they record nothing.
 * Counters are named without `_total`: the Prometheus exporter appends it.
 */

/** Request and call durations, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** How late a schedule fired after its minute, in seconds. */
const LATENESS_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600];

let instruments:
  | {
      httpRequests: Counter;
      httpDuration: Histogram;
      grpcRequests: Counter;
      grpcDuration: Histogram;
      kafkaHandlerDuration: Histogram;
      firingLateness: Histogram;
      actionDuration: Histogram;
      mongodbDuration: Histogram;
      sendSlotWait: Histogram;
      sendCommitRestamps: Counter;
    }
  | undefined;

function meter(): Meter {
  return metrics.getMeter('cmsg');
}

function made() {
  instruments ??= {
    httpRequests: meter().createCounter('cmsg_http_requests', { description: 'HTTP requests answered, by route template, method and status code.' }),
    httpDuration: meter().createHistogram('cmsg_http_request_duration_seconds', {
      description: 'HTTP request duration in seconds, by route template and method.',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    }),
    grpcRequests: meter().createCounter('cmsg_grpc_server_requests', { description: 'gRPC calls served, by service, method and status (catalog code or gRPC status name).' }),
    grpcDuration: meter().createHistogram('cmsg_grpc_server_duration_seconds', {
      description: 'gRPC call duration in seconds, by service and method.',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    }),
    kafkaHandlerDuration: meter().createHistogram('cmsg_kafka_handler_duration_seconds', {
      description: 'Duration of one Kafka message handler run (retries included), in seconds, by topic.',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    }),
    firingLateness: meter().createHistogram('cmsg_schedule_firing_lateness_seconds', {
      description: 'How long after its due time a scheduled message was fired (its command produced), in seconds.',
      advice: { explicitBucketBoundaries: LATENESS_BUCKETS },
    }),
    actionDuration: meter().createHistogram('cmsg_action_duration_seconds', {
      description: 'Duration of one action of an action group, in seconds, by type and result (succeeded, noop, failed, skipped).',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    }),
    mongodbDuration: meter().createHistogram('cmsg_mongodb_operation_duration_seconds', {
      description: 'MongoDB command duration in seconds, by command name.',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    }),
    sendSlotWait: meter().createHistogram('cmsg_send_slot_wait_seconds', {
      description: "How long a provider call waited for its slot in the channel's rate budget (back-offs included), in seconds, by priority (live, broadcast).",
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    }),
    sendCommitRestamps: meter().createCounter('cmsg_send_commit_restamps', {
      description: "Commits of a rate slot made again before the provider call because the first answer came back late (this process's event loop stalled), by priority (live, broadcast).",
    }),
  };
  return instruments;
}

/** A value read when Prometheus scrapes (a backlog count, a pool size); an error or a slow read skips that scrape's sample. */
export type GaugeReading = () => number | Promise<number>;
export type LabelledGaugeReading = () => { attributes: Attributes; value: number }[] | Promise<{ attributes: Attributes; value: number }[]>;

const GAUGE_READ_TIMEOUT_MS = 2_000;

function observed(name: string, description: string, read: LabelledGaugeReading): void {
  meter()
    .createObservableGauge(name, { description })
    .addCallback(async (result) => {
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), GAUGE_READ_TIMEOUT_MS).unref());
      const samples = await Promise.race([Promise.resolve(read()), timeout]).catch(() => []);
      for (const sample of samples) result.observe(sample.value, sample.attributes);
    });
}

export const cmsgMetrics = {
  httpRequest(route: string, method: string, code: number, seconds: number): void {
    made().httpRequests.add(1, { route, method, code: String(code) });
    made().httpDuration.record(seconds, { route, method });
  },
  grpcServerCall(service: string, method: string, code: string, seconds: number): void {
    made().grpcRequests.add(1, { service, method, code });
    made().grpcDuration.record(seconds, { service, method });
  },
  kafkaHandler(topic: string, seconds: number): void {
    made().kafkaHandlerDuration.record(seconds, { topic });
  },
  scheduleFired(latenessSeconds: number): void {
    made().firingLateness.record(Math.max(0, latenessSeconds));
  },
  actionFinished(type: string, result: string, seconds: number): void {
    made().actionDuration.record(seconds, { type, result });
  },
  mongodbOperation(command: string, seconds: number): void {
    made().mongodbDuration.record(seconds, { command });
  },
  sendSlotWait(priority: string, seconds: number): void {
    made().sendSlotWait.record(seconds, { priority });
  },
  sendCommitRestamped(priority: string): void {
    made().sendCommitRestamps.add(1, { priority });
  },
  /** A gauge without labels read at scrape time (cmsg_outbox_backlog, cmsg_webhook_backlog). */
  gauge(name: string, description: string, read: GaugeReading): void {
    observed(name, description, async () => [{ attributes: {}, value: await read() }]);
  },
  /** A gauge with labels read at scrape time (cmsg_kafka_consumer_lag{topic,group}, cmsg_mongodb_pool_connections{state}). */
  labelledGauge(name: string, description: string, read: LabelledGaugeReading): void {
    observed(name, description, read);
  },
};

/** Consumer lag sources of this process, summed by topic and group into one gauge. */
const lagSources = new Set<() => { topic: string; group: string; lag: number }>();
let lagGaugeMade = false;

/** Registers a consumer's lag (messages behind the end of its partitions); the returned function unregisters it. */
export function reportConsumerLag(source: () => { topic: string; group: string; lag: number }): () => void {
  lagSources.add(source);
  if (!lagGaugeMade) {
    lagGaugeMade = true;
    cmsgMetrics.labelledGauge('cmsg_kafka_consumer_lag', 'Messages between the committed offsets of a consumer group member and the end of its partitions, by topic and group.', () => {
      const totals = new Map<string, { topic: string; group: string; lag: number }>();
      for (const read of lagSources) {
        const { topic, group, lag } = read();
        const key = `${topic}\u0000${group}`;
        const total = totals.get(key) ?? { topic, group, lag: 0 };
        total.lag += lag;
        totals.set(key, total);
      }
      return [...totals.values()].map(({ topic, group, lag }) => ({ attributes: { topic, group }, value: lag }));
    });
  }
  return () => lagSources.delete(source);
}
