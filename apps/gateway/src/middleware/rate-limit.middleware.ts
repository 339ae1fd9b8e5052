import { PUBLIC_HEADERS } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import type { RequestHandler, Response } from 'express';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { authenticatedTokenOf } from '../request-state';

function setRateLimitHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.setHeader(PUBLIC_HEADERS.rateLimitLimit, String(limit));
  res.setHeader(PUBLIC_HEADERS.rateLimitRemaining, String(state.remainingPoints));
  res.setHeader(PUBLIC_HEADERS.rateLimitReset, String(Math.ceil(state.msBeforeNext / 1000)));
}

export function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/**
 * One point per request per API token, shared by every replica through the limiter's store.
 * Every authenticated response carries the X-RateLimit-* headers; an exhausted token gets 429.
 */
export function rateLimitMiddleware(limiter: RateLimiterAbstract): RequestHandler {
  return async (_req, res, next) => {
    const { token_uuid } = authenticatedTokenOf(res);
    try {
      setRateLimitHeaders(res, limiter.points, await limiter.consume(token_uuid));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      setRateLimitHeaders(res, limiter.points, rejection);
      next(new CatalogError('RATE_LIMIT_EXCEEDED', undefined, { retryAfterSeconds: retryAfterSeconds(rejection.msBeforeNext) }));
      return;
    }
    next();
  };
}
