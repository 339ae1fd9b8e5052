import express, { type Express } from 'express';
import { TokenAuthenticator } from './auth/token-authenticator';
import { errorHandler } from './error-handler';
import type { GatewayDependencies } from './gateway-dependencies';
import { accessLogMiddleware } from './middleware/access-log.middleware';
import { apiVersionMiddleware } from './middleware/api-version.middleware';
import { notFoundMiddleware } from './middleware/fallback.middleware';
import { requestIdMiddleware } from './middleware/request-id.middleware';
import { BUSINESS_ROUTES } from './routes/business-routes';
import { registerBusinessRoutes } from './routes/register-business-routes';
import { registerOperationalRoutes } from './routes/operational.routes';
import { registerFileTransferRoutes } from './file-transfers/file-transfer.routes';
import { registerChatWebhookRoutes } from './webhooks/chat-webhook.routes';
import { registerApiReferenceRoutes } from './api-reference/api-reference.routes';

/** The gateway's HTTP app; it owns no connections, so tests build it with doubles. */
export function createGatewayApp(dependencies: GatewayDependencies): Express {
  const { config, logger, upstreams, rateLimiter, idempotencyStore, readinessChecks } = dependencies;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.use(requestIdMiddleware(), apiVersionMiddleware(), accessLogMiddleware(logger));
  registerOperationalRoutes(app, { readinessChecks, logger });
  registerApiReferenceRoutes(app, dependencies.apiReference);
  // Outside the business scope, each reading its own body: the raw webhook bytes (signature), the streamed upload.
  registerChatWebhookRoutes(app, { ...dependencies.chatWebhooks, logger });
  registerFileTransferRoutes(app, dependencies.fileContent);
  registerBusinessRoutes(app, BUSINESS_ROUTES, {
    authenticator: new TokenAuthenticator(upstreams.conversations, config.TOKEN_CACHE_TTL_MS),
    rateLimiter,
    idempotencyStore,
    upstreams,
    logger,
  });
  app.use(notFoundMiddleware());
  app.use(errorHandler(logger));
  return app;
}
