import { API_VERSION, PUBLIC_HEADERS } from '@cmsg/api-schemas';
import type { RequestHandler } from 'express';

/** CONTRACT 0: every response carries the interface version. */
export function apiVersionMiddleware(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader(PUBLIC_HEADERS.apiVersion, API_VERSION);
    next();
  };
}
