import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { metrics } from '@opentelemetry/api';
import { type Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { AlwaysOffSampler, BatchSpanProcessor, ParentBasedSampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { redactIncomingPathHook } from './incoming-path-redaction';
import { prometheusReader } from './metrics/metrics-server';
import { registerProcessMetrics } from './metrics/process-metrics';
import { scrubbedMongoStatement } from './mongodb-statement';
import { REQUEST_ID_SPAN_ATTRIBUTE, currentRequestId } from './request-context';
import { setTelemetryStop } from './telemetry-stop';

export { stopTelemetry } from './telemetry-stop';

/** Whether startTelemetry ran (and stopTelemetry has not stopped it since). */
let started = false;

/** Every span started inside a request context carries its request id (runWithRequestContext tags the span it starts in). */
const requestIdSpanProcessor: SpanProcessor = {
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
  if (started) return;
  const endpoint = process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  const resource = detectResources({ detectors: [envDetector, processDetector, hostDetector] }).merge(
    resourceFromAttributes({ 'service.name': serviceName, 'service.version': '0.2.0' }),
  );
  // The SDK's parts rather than @opentelemetry/sdk-node, which loads every exporter, propagator and
  // log pipeline it could configure (about 2,100 modules, a second of CPU at every process start)
  // where these need about 380; the behaviour is the one NodeSDK gave with this configuration.
  // Metrics: scraped at /metrics on METRICS_PORT (startMetricsServer, started by each app once configured).
  const meterProvider = new MeterProvider({ resource, readers: [prometheusReader] });
  metrics.setGlobalMeterProvider(meterProvider);
  const tracerProvider = new NodeTracerProvider({
    resource,
    // Without an endpoint: context still propagates, nothing is exported (an OTLP exporter would
    // otherwise try a collector on localhost and stall shutdown flushing to it).
    spanProcessors: endpoint ? [requestIdSpanProcessor, new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }))] : [],
    // Without an endpoint nothing is exported, so nothing is recorded either: a trace that starts
    // here gets unrecorded spans, whose ids still reach the logs, traceparent and Kafka headers (a
    // trace that arrives sampled stays sampled), and only the instrumentations that carry context
    // across processes are installed; Express, MongoDB and Redis ones would only make spans. Making
    // and dropping spans took about an eighth of the gateway's CPU (conversation-reads benchmark).
    // With an endpoint, every instrumentation and the default sampler (or OTEL_TRACES_SAMPLER) apply.
    ...(endpoint ? {} : { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) }),
  });
  // W3C trace context and baggage, AsyncLocalStorage context.
  tracerProvider.register();
  const instrumentations: Instrumentation[] = [
    new HttpInstrumentation(options.redactIncomingPath ? { requestHook: redactIncomingPathHook(options.redactIncomingPath) } : {}),
    new GrpcInstrumentation(),
    new KafkaJsInstrumentation(),
    ...(endpoint
      ? [
          new ExpressInstrumentation(),
          new MongoDBInstrumentation({ dbStatementSerializer: scrubbedMongoStatement }),
          new RedisInstrumentation(),
          // fetch: the AI provider's client and media downloads (the Cloud API's JSON calls and
          // webhook deliveries go over node:http, traced by the HTTP instrumentation).
          new UndiciInstrumentation(),
        ]
      : []),
  ];
  const disableInstrumentations = registerInstrumentations({ instrumentations, tracerProvider, meterProvider });
  started = true;
  setTelemetryStop(async () => {
    started = false;
    disableInstrumentations();
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]).catch(() => undefined);
  });
  registerProcessMetrics();
}

