import type * as grpc from '@grpc/grpc-js';
import { isCatalogError, toCatalogError } from '@cmsg/errors';
import { catalogErrorStatus } from '@cmsg/proto';
import type { Logger } from '../logger';
import { cmsgMetrics } from '../metrics/cmsg-metrics';
import { runWithRequestContext } from '../request-context';
import { requestContextOf } from './grpc-call-context';

/** A service implementation written as plain async functions of the request. */
export type AsyncUnaryImplementation<Service> = {
  [Method in keyof Service as string extends Method ? never : Method]: Service[Method] extends grpc.handleUnaryCall<infer Request, infer Response>
    ? (request: Request) => Promise<Response>
    : never;
};

/**
 * Adapts async functions to grpc-js handlers. Each call runs in its request context (request id,
 * caller, deadline and cancellation, seen by logs and outgoing calls); catalog errors travel as
 * status details; anything else is logged and sent as a bare INTERNAL. A call its caller cancelled
 * gets no answer: its work stops at the next outgoing step.
 */
export function adaptUnaryService<Service extends grpc.UntypedServiceImplementation>(
  implementation: AsyncUnaryImplementation<Service>,
  logger: Logger,
): Service {
  const adapted: grpc.UntypedServiceImplementation = {};
  for (const [method, handler] of Object.entries(implementation) as [string, (request: unknown) => Promise<unknown>][]) {
    adapted[method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      runWithRequestContext(requestContextOf(call), () => {
        const started = performance.now();
        // '/cmsg.conversations.v1.ConversationsService/GetConversationStatus'
        const service = call.getPath?.().split('/')[1] ?? 'unknown';
        const finished = (code: string) => {
          const seconds = (performance.now() - started) / 1000;
          cmsgMetrics.grpcServerCall(service, method, code, seconds);
          logger.info({ grpc_method: method, code, duration_ms: Math.round(seconds * 10_000) / 10 }, 'grpc call finished');
        };
        if (call.cancelled) {
          finished('CANCELLED');
          return;
        }
        handler(call.request)
          .then((response) => {
            finished(call.cancelled ? 'CANCELLED' : 'OK');
            callback(null, response);
          })
          .catch((error: unknown) => {
            if (call.cancelled) {
              finished('CANCELLED');
              return;
            }
            if (!isCatalogError(error)) logger.error({ err: error, method }, 'unexpected error in gRPC handler');
            const catalogError = toCatalogError(error);
            finished(catalogError.code);
            callback(catalogErrorStatus(catalogError));
          });
      });
    }) as grpc.handleUnaryCall<unknown, unknown>;
  }
  return adapted as Service;
}
