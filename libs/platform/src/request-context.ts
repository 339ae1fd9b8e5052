import { AsyncLocalStorage } from 'node:async_hooks';

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

/** Runs fn with the request id visible to every log line and outgoing call made inside it. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
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
