import type { Express } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { TokenAuthenticator } from '../auth/token-authenticator';
import { authenticateMiddleware } from '../middleware/authenticate.middleware';
import { businessSlugMiddleware } from '../middleware/business-slug.middleware';
import { methodNotAllowedMiddleware } from '../middleware/fallback.middleware';
import { jsonBodyMiddleware } from '../middleware/json-body.middleware';
import { rateLimitMiddleware } from '../middleware/rate-limit.middleware';
import { tokenScopeMiddleware } from '../middleware/token-scope.middleware';
import type { BusinessRoute } from './business-route';
import { type RouteHandlerDependencies, businessRouteHandler } from './business-route-handler';

/** Every business endpoint lives below the business it acts on. */
export const BUSINESS_BASE_PATH = '/v1/:slug';

export interface BusinessPipelineDependencies extends RouteHandlerDependencies {
  authenticator: TokenAuthenticator;
  rateLimiter: RateLimiterAbstract;
}

function groupByPath(routes: readonly BusinessRoute[]): Map<string, BusinessRoute[]> {
  const byPath = new Map<string, BusinessRoute[]>();
  for (const route of routes) byPath.set(route.endpoint.path, [...(byPath.get(route.endpoint.path) ?? []), route]);
  return byPath;
}

/**
 * Mounts each route behind the CONTRACT 1 pipeline, in order: token, slug, the token's scope for
 * this route (CONTRACT 9.3), rate limit, JSON body, then validation, idempotency and the handler.
 * A known path with another method is 405.
 */
export function registerBusinessRoutes(app: Express, routes: readonly BusinessRoute[], dependencies: BusinessPipelineDependencies): void {
  const authenticate = authenticateMiddleware(dependencies.authenticator);
  const matchSlug = businessSlugMiddleware();
  const rateLimit = rateLimitMiddleware(dependencies.rateLimiter);
  const parseJsonBody = jsonBodyMiddleware();
  for (const [path, routesOfPath] of groupByPath(routes)) {
    const routePath = `${BUSINESS_BASE_PATH}${path}`;
    const expressRoute = app.route(routePath);
    for (const route of routesOfPath) {
      const bodyParsing = route.endpoint.schemas.body ? [parseJsonBody] : [];
      const requireScope = tokenScopeMiddleware(route.endpoint);
      expressRoute[route.endpoint.method](authenticate, matchSlug, requireScope, rateLimit, ...bodyParsing, businessRouteHandler(route, routePath, dependencies));
    }
    expressRoute.all(methodNotAllowedMiddleware(routesOfPath.map((route) => route.endpoint.method)));
  }
}
