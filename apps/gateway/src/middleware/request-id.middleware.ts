import { PUBLIC_HEADERS, KeptRequestIdSchema } from '@cmsg/api-schemas';
import { runWithRequestContext } from '@cmsg/platform';
import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';

/** SPEC 1.6: a UUID sent by the client is kept; anything else (or nothing) gets a fresh one. */
export function requestIdFor(clientValue: string | undefined): string {
  return KeptRequestIdSchema.safeParse(clientValue).success ? (clientValue as string) : randomUUID();
}

/**
 * First in the pipeline: echoes the request id on every response (errors and 404s included) and
 * runs the rest of the request inside its context, so log lines and outgoing gRPC calls carry it.
 */
export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdFor(req.get(PUBLIC_HEADERS.requestId));
    res.setHeader(PUBLIC_HEADERS.requestId, requestId);
    runWithRequestContext({ requestId }, () => next());
  };
}
