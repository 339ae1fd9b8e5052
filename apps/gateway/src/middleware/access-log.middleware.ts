import { type Logger, cmsgMetrics } from '@cmsg/platform';
import type { RequestHandler } from 'express';
import { redactSignedFilePath } from '../file-transfers/signed-path-redaction';

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/**
 * One line per finished request (signed file tokens redacted; probes log at debug so they do not
 * drown the rest), and its request count and duration by route template (`unmatched` for paths no
 * route serves, so a scan of random paths cannot grow the series without bound).
 */
export function accessLogMiddleware(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
      const route = routeTemplateOf(req.baseUrl, req.route?.path);
      cmsgMetrics.httpRequest(route, req.method, res.statusCode, durationMs / 1000);
      const level = PROBE_PATHS.has(req.path) ? 'debug' : res.statusCode >= 500 ? 'warn' : 'info';
      logger[level](
        { method: req.method, path: redactSignedFilePath(req.path), route: req.route?.path as string | undefined, status: res.statusCode, duration_ms: Math.round(durationMs * 10) / 10 },
        'request finished',
      );
    });
    next();
  };
}

function routeTemplateOf(baseUrl: string, routePath: unknown): string {
  return typeof routePath === 'string' ? `${baseUrl}${routePath}` : 'unmatched';
}
