import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { redactIncomingPathHook } from './incoming-path-redaction';
import { prometheusReader } from './metrics/metrics-server';
import { registerProcessMetrics } from './metrics/process-metrics';
import { scrubbedMongoStatement } from './mongodb-statement';
import { REQUEST_ID_SPAN_ATTRIBUTE, currentRequestId } from './request-context';

let sdk: NodeSDK | undefined;

/** Every span started inside a request context carries its request id (runWithRequestContext tags the span it starts in). */
const requestIdSpanProcessor: tracing.SpanProcessor = {
  onStart(span) {
    const requestId = currentRequestId();
    if (requestId) span.setAttribute(REQUEST_ID_SPAN_ATTRIBUTE, requestId);
  },
  onEnd() {},
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

export interface TelemetryOptions {
  /** Rewrites incoming request paths before they become span attributes (paths that carry credentials). */
  redactIncomingPath?: (path: string) => string;
}

/**
 * Must run before express, grpc-js, kafkajs, mongodb or redis are first required: the
 * instrumentations patch them on load. Trace context then crosses HTTP headers, gRPC metadata
 * and Kafka message headers. Spans are exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export function startTelemetry(serviceName: string, options: TelemetryOptions = {}): void {
  if (sdk) return;
  const endpoint = process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  // The SDK reads these itself and defaults them to OTLP: traces go to OTLP, metrics to our
  // Prometheus endpoint (metricReader below), logs nowhere, unless told otherwise.
  process.env['OTEL_METRICS_EXPORTER'] ??= 'none';
  process.env['OTEL_LOGS_EXPORTER'] ??= 'none';
  sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.version': '0.2.0' }),
    // Scraped at /metrics on METRICS_PORT (startMetricsServer, started by each app once configured).
    metricReader: prometheusReader,
    // Without an endpoint: context still propagates, nothing is exported (the SDK's default would
    // otherwise try an OTLP collector on localhost and stall shutdown flushing to it).
    spanProcessors: endpoint
      ? [requestIdSpanProcessor, new tracing.BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }))]
      : [new tracing.NoopSpanProcessor()],
    // Without an endpoint nothing is exported, so nothing is recorded either: a trace that starts
    // here gets unrecorded spans, whose ids still reach the logs, traceparent and Kafka headers (a
    // trace that arrives sampled stays sampled), and only the instrumentations that carry context
    // across processes are installed; Express, MongoDB and Redis ones would only make spans. Making
    // and dropping spans took about an eighth of the gateway's CPU (conversation-reads benchmark).
    // With an endpoint, every instrumentation and the SDK's default sampler (or OTEL_TRACES_SAMPLER) apply.
    ...(endpoint ? {} : { sampler: new tracing.ParentBasedSampler({ root: new tracing.AlwaysOffSampler() }) }),
    instrumentations: [
      new HttpInstrumentation(options.redactIncomingPath ? { requestHook: redactIncomingPathHook(options.redactIncomingPath) } : {}),
      new GrpcInstrumentation(),
      new KafkaJsInstrumentation(),
      ...(endpoint
        ? [
            new ExpressInstrumentation(),
            new MongoDBInstrumentation({ dbStatementSerializer: scrubbedMongoStatement }),
            new RedisInstrumentation(),
            // fetch: the Cloud API, the AI provider, media downloads and webhook deliveries.
            new UndiciInstrumentation(),
          ]
        : []),
    ],
  });
  sdk.start();
  registerProcessMetrics();
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}
