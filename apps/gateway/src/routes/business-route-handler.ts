import { PUBLIC_HEADERS } from '@cmsg/api-schemas';
import type { Logger } from '@cmsg/platform';
import type { RequestHandler, Response } from 'express';
import type { Upstreams } from '../gateway-dependencies';
import type { IdempotencyStore, StoredResponse } from '../idempotency/idempotency-store';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import { type IdempotentOutcome, runIdempotently } from '../idempotency/run-idempotently';
import { callerOf } from '../request-state';
import { parseEndpointInput, parseIdempotencyKey } from '../validate';
import type { BusinessRoute, RouteServices } from './business-route';

export interface RouteHandlerDependencies {
  upstreams: Upstreams;
  idempotencyStore: IdempotencyStore;
  logger: Logger;
}

function send(res: Response, { response, replayed }: IdempotentOutcome): void {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (replayed) res.setHeader(PUBLIC_HEADERS.idempotentReplayed, 'true');
  if (response.status === 204) res.status(204).end();
  else res.status(response.status).json(response.body);
}

/**
 * The last step of a business request, after auth, slug and rate limit: validate the declared
 * request parts, then run the route (through the Idempotency-Key store when a POST carries one).
 */
export function businessRouteHandler(route: BusinessRoute, routePath: string, dependencies: RouteHandlerDependencies): RequestHandler {
  const { endpoint } = route;
  const services: RouteServices = { ...dependencies.upstreams, idempotencyRecords: dependencies.idempotencyStore };
  return async (req, res) => {
    const input = parseEndpointInput(endpoint, req);
    const idempotencyKey = endpoint.method === 'post' ? parseIdempotencyKey(req) : undefined;
    const caller = callerOf(res);
    const execute = async (): Promise<StoredResponse> => ({ ...(await route.handle({ ...input, caller, idempotencyKey }, services)), headers: {} });
    if (idempotencyKey === undefined) {
      send(res, { response: await execute(), replayed: false });
      return;
    }
    const outcome = await runIdempotently(
      dependencies.idempotencyStore,
      { tokenUuid: caller.token_uuid, key: idempotencyKey },
      requestFingerprint(endpoint.method, routePath, input),
      execute,
      dependencies.logger,
    );
    send(res, outcome);
  };
}
