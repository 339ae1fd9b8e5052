import { AsyncLocalStorage } from 'node:async_hooks';
import { context as otelContext, trace } from '@opentelemetry/api';
import { getRPCMetadata } from '@opentelemetry/core';

export interface RequestContext {
  requestId: string;
  /** Who called this service (a gRPC caller's certificate or token name); absent outside gRPC calls. */
  caller?: string;
  /** Epoch ms by which the caller wants its answer; outgoing calls never wait longer. */
  deadline?: number;
  /** Aborted when the caller cancels or its deadline passes: no further step starts for it. */
  signal?: AbortSignal;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The span attribute that names the request a span worked for (REQUEST_ID_HEADER's value). */
export const REQUEST_ID_SPAN_ATTRIBUTE = 'cmsg.request_id';

/**
 * Runs fn with the request id visible to every log line, outgoing call and span made inside it.
 * The span active at entry (the HTTP server span, the gRPC server span, the Kafka consumer span the
 * instrumentations started for this work) gets the id too; the spans started inside get it from
 * the telemetry's span processor.
 */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  trace.getActiveSpan()?.setAttribute(REQUEST_ID_SPAN_ATTRIBUTE, context.requestId);
  // Under Express the active span is a middleware's; the HTTP server span is the request's root.
  getRPCMetadata(otelContext.active())?.span?.setAttribute(REQUEST_ID_SPAN_ATTRIBUTE, context.requestId);
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Header/metadata name that carries the request id across HTTP, gRPC and Kafka. */
export const REQUEST_ID_HEADER = 'x-request-id';
