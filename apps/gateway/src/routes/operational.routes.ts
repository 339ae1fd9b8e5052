import { UNSCOPED_PATHS, buildOpenApiDocument } from '@cmsg/api-schemas';
import { ERROR_CATALOG } from '@cmsg/errors';
import type { Logger } from '@cmsg/platform';
import type { Express } from 'express';
import { methodNotAllowedMiddleware } from '../middleware/fallback.middleware';
import { type ReadinessCheck, checkReadiness } from '../readiness/readiness-check';

const READINESS_TIMEOUT_MS = 3000;

export interface OperationalRouteDependencies {
  readinessChecks: readonly ReadinessCheck[];
  logger: Logger;
}

/** Routes outside the business scope, without a token: liveness, readiness and the OpenAPI document. */
export function registerOperationalRoutes(app: Express, { readinessChecks, logger }: OperationalRouteDependencies): void {
  const openApiDocument = buildOpenApiDocument();
  const getOnly = methodNotAllowedMiddleware(['get']);

  app
    .route(UNSCOPED_PATHS.healthz)
    .get((_req, res) => {
      res.json({ status: 'ok' });
    })
    .all(getOnly);

  app
    .route(UNSCOPED_PATHS.readyz)
    .get(async (_req, res) => {
      const report = await checkReadiness(readinessChecks, READINESS_TIMEOUT_MS);
      if (report.ready) {
        res.json({ status: 'ready', checks: report.checks });
        return;
      }
      for (const failure of report.failures) {
        logger.warn({ dependency: failure.name, reason: failure.error instanceof Error ? failure.error.message : String(failure.error) }, 'dependency not ready');
      }
      const failing = report.failures.map((failure) => failure.name).join(', ');
      // Which dependency failed is told; how (addresses, errors) stays in the logs.
      res.status(ERROR_CATALOG.SERVICE_UNAVAILABLE.httpStatus).json({ code: 'SERVICE_UNAVAILABLE', message: `Not ready: ${failing}.`, checks: report.checks });
    })
    .all(getOnly);

  app
    .route(UNSCOPED_PATHS.openApiDocument)
    .get((_req, res) => {
      res.json(openApiDocument);
    })
    .all(getOnly);
}
