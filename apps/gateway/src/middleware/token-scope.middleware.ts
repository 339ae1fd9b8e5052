import { type PublicEndpoint, openApiPathOf, requiredScopeOf } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import type { RequestHandler } from 'express';
import { authenticatedTokenOf } from '../request-state';

/**
 * 403 TOKEN_SCOPE_INSUFFICIENT unless the token holds the scope the endpoint needs (CONTRACT 9.3).
 * The scope comes from the one rule the OpenAPI document states too (requiredScopeOf).
 */
export function tokenScopeMiddleware(endpoint: PublicEndpoint): RequestHandler {
  const scope = requiredScopeOf(endpoint);
  const operation = `${endpoint.method.toUpperCase()} /{slug}${openApiPathOf(endpoint.path)}`;
  return (_req, res, next) => {
    const granted = authenticatedTokenOf(res).scopes.includes(scope);
    next(granted ? undefined : new CatalogError('TOKEN_SCOPE_INSUFFICIENT', `The API token lacks the scope ${scope}, which ${operation} needs.`));
  };
}
