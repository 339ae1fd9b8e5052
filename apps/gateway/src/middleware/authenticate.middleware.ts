import { CatalogError } from '@cmsg/errors';
import type { RequestHandler } from 'express';
import { bearerApiTokenOf } from '../auth/api-token';
import type { TokenAuthenticator } from '../auth/token-authenticator';
import { rememberAuthenticatedToken } from '../request-state';

/** 401 INVALID_API_TOKEN for a missing or malformed token (no lookup) and for an unknown or revoked one. */
export function authenticateMiddleware(authenticator: TokenAuthenticator): RequestHandler {
  return async (req, res, next) => {
    const token = bearerApiTokenOf(req.get('authorization'));
    if (token === undefined) {
      next(new CatalogError('INVALID_API_TOKEN'));
      return;
    }
    rememberAuthenticatedToken(res, await authenticator.authenticate(token));
    next();
  };
}
