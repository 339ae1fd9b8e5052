import * as grpc from '@grpc/grpc-js';
import { isCatalogError, toCatalogError } from '@cmsg/errors';
import { HealthCheckResponse_ServingStatus, type HealthServer, HealthService } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import type { Logger } from './logger';
import { REQUEST_ID_HEADER, runWithRequestContext } from './request-context';
import { toGrpcStatus } from './grpc-errors';

/** A service implementation written as plain async functions of the request. */
export type AsyncUnaryImplementation<Service> = {
  [Method in keyof Service as string extends Method ? never : Method]: Service[Method] extends grpc.handleUnaryCall<infer Request, infer Response>
    ? (request: Request) => Promise<Response>
    : never;
};

/**
 * Adapts async functions to grpc-js handlers: the request id from metadata scopes the call's logs,
 * catalog errors travel as status details, anything else is logged and sent as a bare INTERNAL.
 */
export function adaptUnaryService<Service extends grpc.UntypedServiceImplementation>(
  implementation: AsyncUnaryImplementation<Service>,
  logger: Logger,
): Service {
  const adapted: grpc.UntypedServiceImplementation = {};
  for (const [method, handler] of Object.entries(implementation) as [string, (request: unknown) => Promise<unknown>][]) {
    adapted[method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const requestId = String(call.metadata.get(REQUEST_ID_HEADER)[0] ?? randomUUID());
      runWithRequestContext({ requestId }, () => {
        const started = performance.now();
        const finished = (code: string) => logger.info({ grpc_method: method, code, duration_ms: Math.round((performance.now() - started) * 10) / 10 }, 'grpc call finished');
        handler(call.request)
          .then((response) => {
            finished('OK');
            callback(null, response);
          })
          .catch((error: unknown) => {
            if (!isCatalogError(error)) logger.error({ err: error, method }, 'unexpected error in gRPC handler');
            const catalogError = toCatalogError(error);
            finished(catalogError.code);
            callback(toGrpcStatus(catalogError));
          });
      });
    }) as grpc.handleUnaryCall<unknown, unknown>;
  }
  return adapted as Service;
}

/** The health service name under which the conversations service answers for its MongoDB (the gateway's /readyz names it). */
export const MONGODB_HEALTH_SERVICE = 'mongodb';

/**
 * grpc.health.v1. The server as a whole (service "") is SERVING while `isHealthy` passes; each
 * named dependency check answers for itself under its own service name (a gateway names what is
 * down), and any other name is SERVICE_UNKNOWN.
 */
export function addHealthService(
  server: grpc.Server,
  isHealthy: () => Promise<boolean>,
  logger: Logger,
  dependencyChecks: Record<string, () => Promise<boolean>> = {},
): void {
  const servingStatus = async (check: () => Promise<boolean>) =>
    (await check().catch(() => false)) ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING;
  server.addService(
    HealthService,
    adaptUnaryService<HealthServer>(
      {
        check: async (request) => {
          if (!request.service) return { status: await servingStatus(isHealthy) };
          const check = dependencyChecks[request.service];
          return { status: check ? await servingStatus(check) : HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN };
        },
      },
      logger,
    ),
  );
}

export function bindGrpcServer(server: grpc.Server, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port)));
  });
}

/** Drains in-flight calls; forces after the timeout. */
export function shutdownGrpcServer(server: grpc.Server, timeoutMs = 10000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, timeoutMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
