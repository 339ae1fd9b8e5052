import { PUBLIC_HEADERS } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import type { RequestHandler } from 'express';

/** After every route: an unknown path. */
export function notFoundMiddleware(): RequestHandler {
  return (_req, _res, next) => next(new CatalogError('NOT_FOUND'));
}

/** Last handler of a known path: the method is not one of `allowedMethods`. */
export function methodNotAllowedMiddleware(allowedMethods: readonly string[]): RequestHandler {
  const allow = [...new Set(allowedMethods.map((method) => method.toUpperCase()).flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])))].join(', ');
  return (_req, res, next) => {
    res.setHeader(PUBLIC_HEADERS.allow, allow);
    next(new CatalogError('METHOD_NOT_ALLOWED'));
  };
}
