import type { EndpointInput, EndpointResponse, PublicEndpoint } from '@cmsg/api-schemas';
import type { Caller } from '@cmsg/proto';
import type { Upstreams } from '../gateway-dependencies';
import type { IdempotencyStore } from '../idempotency/idempotency-store';

/** What a route's upstream call receives: the validated request parts and the caller to scope by. */
export type BusinessRouteRequest<Endpoint extends PublicEndpoint> = EndpointInput<Endpoint> & {
  caller: Caller;
  /** The request's Idempotency-Key, for a route whose upstream write must be once per key even after a crash. */
  idempotencyKey?: string;
};

/**
 * A success answered with another status than the endpoint's successStatus, e.g. 207 when some
 * parts of a request failed; its body is documented by the endpoint's description.
 */
export class StatusResponse<Body = unknown> {
  constructor(
    readonly status: number,
    readonly body: Body,
  ) {}
}

/** What a route answers: the status and the public JSON body. */
export interface RouteResult {
  status: number;
  body: unknown;
}

/** What a route's call reaches: the gRPC services, and the stored idempotent responses (an erasure forgets those about the contact). */
export type RouteServices = Upstreams & { idempotencyRecords: Pick<IdempotencyStore, 'forgetResponsesMentioning'> };

/** A business endpoint bound to its handler; the pipeline around it is the same for all. */
export interface BusinessRoute {
  readonly endpoint: PublicEndpoint;
  handle(request: BusinessRouteRequest<PublicEndpoint>, services: RouteServices): Promise<RouteResult>;
}

/**
 * Declares a business route: the endpoint (schemas, path, status) from @cmsg/api-schemas, the
 * upstream call, and the mapper from the upstream answer to the public JSON. Both steps are
 * type-checked against the endpoint's schemas. The mapper answers the endpoint's successStatus
 * unless it returns a StatusResponse.
 */
export function businessRoute<Endpoint extends PublicEndpoint, UpstreamResponse>(
  endpoint: Endpoint,
  steps: {
    call: (services: RouteServices, request: BusinessRouteRequest<Endpoint>) => Promise<UpstreamResponse>;
    toResponse: (upstream: UpstreamResponse) => EndpointResponse<Endpoint> | StatusResponse;
  },
): BusinessRoute {
  return {
    endpoint,
    // The pipeline parsed the request with this same endpoint's schemas.
    handle: async (request, services) => {
      const response = steps.toResponse(await steps.call(services, request as BusinessRouteRequest<Endpoint>));
      return response instanceof StatusResponse ? { status: response.status, body: response.body } : { status: endpoint.successStatus, body: response };
    },
  };
}
