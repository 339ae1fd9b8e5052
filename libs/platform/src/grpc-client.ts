import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { fromGrpcError } from './grpc-errors';
import { REQUEST_ID_HEADER, currentRequestId } from './request-context';

type UnaryClientMethod<Request, Response> = (
  request: Request,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: Response) => void,
) => grpc.ClientUnaryCall;

/** The promise-returning face of a ts-proto grpc-js client. */
export type PromiseClient<Client> = {
  [Method in keyof Client as Client[Method] extends (
    request: never,
    metadata: grpc.Metadata,
    options: Partial<grpc.CallOptions>,
    callback: never,
  ) => grpc.ClientUnaryCall
    ? Method
    : never]: Client[Method] extends UnaryClientMethod<
    infer Request,
    infer Response
  >
    ? (request: Request) => Promise<Response>
    : never;
};

export interface PromiseClientOptions {
  deadlineMs: number;
}

/** Every call carries the current request id and a deadline; failures come back as catalog errors. */
export function promiseClient<Client extends grpc.Client>(client: Client, options: PromiseClientOptions): PromiseClient<Client> {
  return new Proxy({} as PromiseClient<Client>, {
    get(_target, property) {
      const method = (client as unknown as Record<string | symbol, unknown>)[property];
      if (typeof method !== 'function') return undefined;
      return (request: unknown) =>
        new Promise((resolve, reject) => {
          const metadata = new grpc.Metadata();
          metadata.set(REQUEST_ID_HEADER, currentRequestId() ?? randomUUID());
          (method as UnaryClientMethod<unknown, unknown>).call(
            client,
            request,
            metadata,
            { deadline: Date.now() + options.deadlineMs },
            (error, response) => (error ? reject(fromGrpcError(error)) : resolve(response)),
          );
        });
    },
  });
}

export const insecureChannel = grpc.credentials.createInsecure();
