import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { CatalogError, GrpcStatus } from '@cmsg/errors';
import { catalogErrorFromServiceError } from './catalog-status';
import { type ClientSecurity, channelCredentialsFor } from './client-security';
import { channelServiceConfig } from './service-config';

/** Metadata names this client sends (docs/grpc.md, "Metadata"). */
export const REQUEST_ID_METADATA = 'x-request-id';
export const AUTHORIZATION_METADATA = 'authorization';

/** The work a call is made for: its request id, its deadline (epoch ms) and its cancellation. */
export interface CallContext {
  requestId?: string;
  deadline?: number;
  signal?: AbortSignal;
}

export interface CallOptions {
  /** This call's deadline from now; the caller's remaining deadline still wins when it is shorter. */
  deadlineMs?: number;
}

type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: Response) => void,
) => grpc.ClientUnaryCall;

/** The promise-returning face of a ts-proto grpc-js client: its unary methods only. */
export type PromiseClient<Client> = {
  [Method in keyof Client as Client[Method] extends (
    request: never,
    metadata: grpc.Metadata,
    options: Partial<grpc.CallOptions>,
    callback: never,
  ) => grpc.ClientUnaryCall
    ? Method
    : never]: Client[Method] extends UnaryMethod<infer Request, infer Response> ? (request: Request, options?: CallOptions) => Promise<Response> : never;
};

export interface ServiceClientOptions<Client> {
  /** host:port */
  address: string;
  security: ClientSecurity;
  /** Deadline of every call unless its method has its own below. */
  deadlineMs: number;
  methodDeadlinesMs?: Partial<Record<keyof PromiseClient<Client>, number>>;
  /** The caller's current work (request id, remaining deadline, cancellation); called per call. */
  callContext?: () => CallContext | undefined;
  channelOptions?: grpc.ChannelOptions;
}

export interface ServiceClient<Client> {
  /** Unary calls as promises; a failure rejects with the catalog error the service raised. */
  rpc: PromiseClient<Client>;
  /** The generated client itself, for streaming calls: pass it callMetadata() and callOptions(). */
  raw: Client;
  callMetadata(): grpc.Metadata;
  callOptions(deadlineMs: number): Partial<grpc.CallOptions>;
  close(): void;
}

export interface GeneratedClientConstructor<Client> {
  new (address: string, credentials: grpc.ChannelCredentials, options?: Partial<grpc.ClientOptions>): Client;
  serviceName: string;
}

/**
 * How soon a channel tries again to connect to a service it lost. grpc-js's default starts at 1 s
 * and grows by 1.6 up to 120 s while the service stays away, and a call made meanwhile fails at once
 * (UNAVAILABLE): a gateway kept answering 503 for seconds after a restarted service was back, for
 * up to 2 minutes after a long outage. Between the apps of one cluster, a connection attempt a
 * second costs nothing.
 */
export const RECONNECT_BACKOFF = { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 1_000 } as const;

/**
 * A typed client of one cmsg service: TLS or token as configured, a deadline on every call (the
 * shorter of its own and the caller's remaining one), the caller's request id and cancellation
 * carried along, retries of read methods when the server is unreachable, a reconnection within about
 * a second of a lost service's return (RECONNECT_BACKOFF), and failures turned into
 * the catalog error a REST client would get. Trace context rides along through the OpenTelemetry
 * gRPC instrumentation when the calling process runs it.
 */
export function createServiceClient<Client extends grpc.Client>(
  ClientConstructor: GeneratedClientConstructor<Client>,
  options: ServiceClientOptions<Client>,
): ServiceClient<Client> {
  const raw = new ClientConstructor(options.address, channelCredentialsFor(options.security), {
    'grpc.service_config': channelServiceConfig(ClientConstructor.serviceName),
    ...RECONNECT_BACKOFF,
    ...options.channelOptions,
  });

  const callMetadata = (): grpc.Metadata => {
    const metadata = new grpc.Metadata();
    metadata.set(REQUEST_ID_METADATA, options.callContext?.()?.requestId ?? randomUUID());
    if (options.security.token) metadata.set(AUTHORIZATION_METADATA, `Bearer ${options.security.token}`);
    return metadata;
  };
  const callOptions = (deadlineMs: number): Partial<grpc.CallOptions> => {
    const callerDeadline = options.callContext?.()?.deadline;
    const own = Date.now() + deadlineMs;
    return { deadline: callerDeadline !== undefined ? Math.min(own, callerDeadline) : own };
  };

  const rpc = new Proxy({} as PromiseClient<Client>, {
    get(_target, property) {
      const method = (raw as unknown as Record<string | symbol, unknown>)[property];
      if (typeof method !== 'function') return undefined;
      const methodDeadlineMs = (options.methodDeadlinesMs as Record<string | symbol, number | undefined> | undefined)?.[property];
      return (request: unknown, perCall: CallOptions = {}) =>
        invoke(raw, method as UnaryMethod<unknown, unknown>, request, {
          metadata: callMetadata(),
          options: callOptions(perCall.deadlineMs ?? methodDeadlineMs ?? options.deadlineMs),
          signal: options.callContext?.()?.signal,
        });
    },
  });

  return { rpc, raw, callMetadata, callOptions, close: () => raw.close() };
}

function invoke(
  client: grpc.Client,
  method: UnaryMethod<unknown, unknown>,
  request: unknown,
  call: { metadata: grpc.Metadata; options: Partial<grpc.CallOptions>; signal: AbortSignal | undefined },
): Promise<unknown> {
  // The caller's work is over: no next step starts on its behalf.
  if (call.signal?.aborted) return Promise.reject(refused(GrpcStatus.CANCELLED, 'The calling work was cancelled.'));
  if (typeof call.options.deadline === 'number' && call.options.deadline <= Date.now()) {
    return Promise.reject(refused(GrpcStatus.DEADLINE_EXCEEDED, "The caller's deadline has passed."));
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => pending.cancel();
    const pending = method.call(client, request, call.metadata, call.options, (error, response) => {
      call.signal?.removeEventListener('abort', onAbort);
      if (error) reject(catalogErrorFromServiceError(error));
      else resolve(response);
    });
    // Cancelling the caller's work cancels the call it is waiting on (gRPC cancellation propagation).
    call.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function refused(code: GrpcStatus, details: string): CatalogError {
  return catalogErrorFromServiceError({ code: code as unknown as grpc.status, details, metadata: new grpc.Metadata() });
}
