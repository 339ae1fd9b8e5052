import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with the request id visible to every log line and outgoing call made inside it. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Header/metadata name that carries the request id across HTTP, gRPC and Kafka. */
export const REQUEST_ID_HEADER = 'x-request-id';
